"""Two runs compared episode by episode. Scenarios are a pure function of task and seed and the
default customer is deterministic, so the episodes of two runs on the same (suite, task, seed, UI
variant, customer variant, trial) are paired: their difference is judged on the pairs, by a paired
bootstrap over scenarios for the interval and an exact McNemar test on the pairs that disagree for
success. The UI and customer variants' gaps (`summarize --by-variant`) pair a label's episodes the
same way, variant 0 against each other variant.

Runs that differ in a setting that changes results (RESULT_SETTINGS) are not comparable; `check`
names the difference so that the command line can refuse them."""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from ..episode.trajectory import Trajectory
from ..episode.variants import CUSTOMER, DIMENSIONS, UI, Dimension, base_label
from ..experiment.protocols import protocol_of
from ..experiment.settings import with_implied
from .intervals import BOOTSTRAP, cluster_bootstrap
from .summary import ALL_TASKS_ROW, task_order

# What changes an episode's result besides the agent, as a run's episodes record it ("" where they
# do not: an exported dataset keeps neither the step cap nor the observation modes).
RESULT_SETTINGS = {
    "suite": lambda t: protocol_of(t.settings).name,  # the suite is the protocol's
    "customer": lambda t: "simulated customer" if protocol_of(t.settings).on_call else "none",
    # how the customer reached the agent: say, page (SAY for a call recorded before there was another way)
    "channel": lambda t: (with_implied(t.settings) or {}).get("channel") or "",
    # the rules the call was scored by (1 for a call recorded before issue 53)
    "scoring_version": lambda t: str((with_implied(t.settings) or {}).get("scoring_version") or ""),
    "observations": lambda t: ",".join(t.observations or ()),
    "max_steps": lambda t: str((t.settings or {}).get("max_steps") or ""),
}
CSV_FIELDS = ["run_a", "run_b", "task", "pairs", "a_success", "b_success", "difference", "difference_low",
              "difference_high", "mcnemar_p", "won_by_a_only", "won_by_b_only", "a_progress", "b_progress",
              "progress_difference", "progress_low", "progress_high", "flipped_to_a", "flipped_to_b"]
Key = tuple  # (suite, task, seed, UI variant, customer variant, trial)
SCENARIO = slice(0, 5)  # what of a key names the scenario played (all but the trial)
VARIANT_AT = {UI.field: 3, CUSTOMER.field: 4}  # where a key holds each dimension's variant


@dataclass
class Run:
    name: str  # as the user named it
    episodes: list[Trajectory]  # its finished episodes, of one label


@dataclass
class Line:
    """The comparison over one task (or all tasks): success and progress, A against B."""
    task: str
    pairs: int
    a_success: float
    b_success: float
    difference: tuple[float, float, float]  # A - B, low, high
    mcnemar_p: float
    a_only: list[Key]  # won by A only
    b_only: list[Key]
    a_progress: float
    b_progress: float
    progress_difference: tuple[float, float, float]


@dataclass
class Comparison:
    a: Run
    b: Run
    paired: int
    only_a: list[Key]  # episodes of A with no partner in B
    only_b: list[Key]
    lines: list[Line] = field(default_factory=list)


def key(trajectory: Trajectory) -> Key:
    return (protocol_of(trajectory.settings).name, trajectory.task, trajectory.seed, UI.of(trajectory.scenario),
            CUSTOMER.of(trajectory.scenario), trajectory.trial)


def describe_key(k: Key) -> str:
    """An episode as `TASK seed S`, with its suite, variants and trial when they are not the first."""
    suite, task, seed, *_, trial = k
    variants = [d.describe(k[VARIANT_AT[d.field]]) for d in DIMENSIONS if k[VARIANT_AT[d.field]]]
    return " ".join([*([suite] if suite != "full" else []), task, f"seed {seed}", *variants,
                     *([f"trial {trial}"] if trial else [])])


def settings_of(run: Run) -> dict[str, list[str]]:
    """Each result-changing setting's recorded values in the run."""
    return {name: sorted({value(t) for t in run.episodes} - {""}) for name, value in RESULT_SETTINGS.items()}


def differences(a: Run, b: Run, allowed: set[str] = frozenset()) -> list[str]:
    """The result-changing settings in which the runs differ (and that are not `allowed`), in words;
    a setting one of them does not record is not compared."""
    mine, theirs = settings_of(a), settings_of(b)
    return [f"{name}: {', '.join(mine[name])} in {a.name}, {', '.join(theirs[name])} in {b.name}"
            for name in RESULT_SETTINGS
            if mine[name] and theirs[name] and mine[name] != theirs[name] and name not in allowed]


def compare(a: Run, b: Run) -> Comparison:
    """Pair the runs' episodes and compare them per task and over all tasks."""
    mine, theirs = {key(t): t for t in a.episodes}, {key(t): t for t in b.episodes}
    paired = sorted(mine.keys() & theirs.keys(), key=_order)
    comparison = Comparison(a, b, len(paired), sorted(mine.keys() - theirs.keys(), key=_order),
                            sorted(theirs.keys() - mine.keys(), key=_order))
    by_task: dict[str, list[Key]] = defaultdict(list)
    for k in paired:
        by_task[k[1]].append(k)
    for task, keys in by_task.items():
        comparison.lines.append(_line(task, keys, mine, theirs))
    if len(by_task) > 1:
        comparison.lines.append(_line(ALL_TASKS_ROW, paired, mine, theirs))
    return comparison


def _order(k: Key) -> tuple:
    return (k[0], task_order(k[1]), *k[2:])


def _line(task: str, keys: list[Key], mine: dict, theirs: dict) -> Line:
    success = lambda t: float(bool(t.metrics.get("success")))  # noqa: E731
    progress = lambda t: float(t.metrics.get("task_progress") or 0)  # noqa: E731
    a_only = [k for k in keys if success(mine[k]) > success(theirs[k])]
    b_only = [k for k in keys if success(mine[k]) < success(theirs[k])]
    return Line(task, len(keys), _mean(success(mine[k]) for k in keys), _mean(success(theirs[k]) for k in keys),
                paired_difference(keys, mine, theirs, success), mcnemar(len(a_only), len(b_only)), a_only, b_only,
                _mean(progress(mine[k]) for k in keys), _mean(progress(theirs[k]) for k in keys),
                paired_difference(keys, mine, theirs, progress))


def paired_difference(keys: list[Key], mine: dict, theirs: dict, value) -> tuple[float, float, float]:
    """Mean of A - B over the pairs, and its percentile bootstrap interval over scenarios (the
    trials of a scenario resampled together)."""
    clusters: dict[Key, list[float]] = defaultdict(list)
    for k in keys:
        clusters[k[SCENARIO]].append(value(mine[k]) - value(theirs[k]))
    low, high = cluster_bootstrap(list(clusters.values()))
    return _mean(d for c in clusters.values() for d in c), low, high


def mcnemar(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value: under no difference, each discordant pair is won by A or by B
    with chance 1/2, so the smaller count is binomial(a_only + b_only, 1/2)."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(a_only, b_only) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def _mean(values) -> float:
    values = list(values)
    return math.fsum(values) / len(values) if values else math.nan


def method_note() -> str:
    return (f"Difference A - B over the paired episodes with its {BOOTSTRAP.confidence:.0%} interval: paired "
            f"{BOOTSTRAP.describe()}. p: two-sided exact McNemar test on the pairs whose success differs.")


def csv_rows(comparison: Comparison) -> list[dict]:
    return [{"run_a": comparison.a.name, "run_b": comparison.b.name, "task": line.task, "pairs": line.pairs,
             "a_success": line.a_success, "b_success": line.b_success, "difference": line.difference[0],
             "difference_low": line.difference[1], "difference_high": line.difference[2],
             "mcnemar_p": line.mcnemar_p, "won_by_a_only": len(line.a_only), "won_by_b_only": len(line.b_only),
             "a_progress": line.a_progress, "b_progress": line.b_progress,
             "progress_difference": line.progress_difference[0], "progress_low": line.progress_difference[1],
             "progress_high": line.progress_difference[2],
             "flipped_to_a": "; ".join(map(describe_key, line.a_only)),
             "flipped_to_b": "; ".join(map(describe_key, line.b_only))} for line in comparison.lines]


ALL_OTHERS = "all others"


@dataclass
class Gap:
    """How much worse a label does in another variant of a dimension (UI, customer) than in its
    variant 0, on the same scenarios: the generalization gap."""
    dimension: Dimension
    label: str
    variant: str  # the other variant in words ("caller 2 (vague)"), or ALL_OTHERS
    scenarios: int  # scenarios played in variant 0 and in the other
    base: float  # success in variant 0
    others: float  # success in the other variant (ALL_OTHERS: each scenario's mean over them)
    gap: tuple[float, float, float]  # base - others, low, high


def variant_gaps(episodes: list[Trajectory], dimension: Dimension = UI) -> list[Gap]:
    """Per label (its variant suffixes left out), the dimension's variant 0 against each other variant
    and, when there are several, against all of them together, paired by scenario (what the key
    holds besides this variant); labels with no scenario played in both are left out."""
    at = VARIANT_AT[dimension.field]
    played: dict[str, dict[tuple, dict[int, float]]] = defaultdict(lambda: defaultdict(dict))
    for t in episodes:
        if t.complete:
            k = key(t)
            played[base_label(t.label)][k[:at] + k[at + 1:]][k[at]] = float(bool(t.metrics.get("success")))
    gaps = []
    for label, scenarios in sorted(played.items()):
        others = sorted({n for variants in scenarios.values() for n in variants} - {0})
        for number in others:
            gaps.append(_gap(dimension, label, dimension.describe(number), scenarios, lambda v, n=number: v.get(n)))
        if len(others) > 1:
            gaps.append(_gap(dimension, label, ALL_OTHERS, scenarios,
                             lambda v: _mean(x for n, x in v.items() if n != 0) if len(v) > 1 else None))
    return [gap for gap in gaps if gap is not None]


def _gap(dimension: Dimension, label: str, variant: str, scenarios: dict, other) -> Gap | None:
    """The gap of variant 0 against `other` (a scenario's success in the other variant(s), or None)."""
    pairs = {s: (v[0], other(v)) for s, v in scenarios.items() if 0 in v and other(v) is not None}
    if not pairs:
        return None
    clusters: dict[tuple, list[float]] = defaultdict(list)
    for scenario, (base, others) in pairs.items():
        clusters[scenario[:3]].append(base - others)  # (suite, task, seed): its trials and other variants together
    low, high = cluster_bootstrap(list(clusters.values()))
    base, others = _mean(b for b, _ in pairs.values()), _mean(o for _, o in pairs.values())
    return Gap(dimension, label, variant, len(pairs), base, others, (base - others, low, high))
