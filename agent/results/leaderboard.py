"""The leaderboard: runs ranked by their success over all tasks, each with its 95 % interval (the
summary's, intervals.py), per suite and per task, pass^k, completion under policy, tokens and cost,
and its provenance. A run whose interval overlaps the leader's is not separable from it: the
episodes do not tell which of the two is better.

A rate over one task is not a rate over six: runs that cover different tasks (suites, UI variants,
customer variants) are grouped by what they cover, the fullest first, and each group is ranked on
its own.

The expert suite is ranked on its `test` split alone: its `train` templates are for training, so a
run's episodes of them are left out of every rate (and counted, so that the board can say so)."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from itertools import groupby

from ..episode.trajectory import Trajectory
from ..episode.variants import CUSTOMER, UI
from scenarios.suites import SUITES, split_of

from ..experiment.protocols import protocol_of
from .report.costs import episode_cost
from .summary import VIOLATION_FIELDS, summarize, summarize_overall, task_order

CSV_FIELDS = ["rank", "run", "label", "episodes", "success", "success_low", "success_high", "separable",
              "pass_k", "k", "under_policy", "tokens", "cost", "method", "model", "git_commit",
              "coverage", "coverage_rank", "seconds_per_task", *VIOLATION_FIELDS]  # per kind: an expert call's

# What a run's episodes span, each as (its name in the plural, how an episode says its value).
DIMENSIONS = (
    ("tasks", lambda t: t.task),
    ("suites", lambda t: protocol_of(t.settings).name),
    ("UI variants", lambda t: str(UI.of(t.scenario))),
    ("customer variants", lambda t: str(CUSTOMER.of(t.scenario))),
)
Coverage = tuple[frozenset[str], ...]  # per dimension, the values a run's episodes have


@dataclass
class Entry:
    name: str  # the run as named on the command line
    label: str
    episodes: list[Trajectory]  # finished ones
    provenance: dict = field(default_factory=dict)  # method, model, git_commit, settings
    link: str | None = None  # its report (or dataset card), relative to the leaderboard page


@dataclass
class Standing:
    entry: Entry
    rank: int  # among the runs of its coverage
    overall: dict  # the summary row over all its tasks
    suites: dict[str, dict]  # suite -> its row over that suite's tasks
    tasks: dict[str, dict]  # task -> its row
    tokens: int
    cost: float | None  # US dollars; None without a price for every model that spent tokens
    separable: bool | None = None  # from its group's leader; None for the leader itself
    coverage: Coverage = ()
    covers: str = ""  # its coverage in words: "all 6 tasks", "1 of 6 tasks: TASK_FIND_FLIGHT"
    partial: bool = False  # it covers less than all the runs together
    place: int = 0  # its row on the board, counted over all groups


def rank(entries: list[Entry], prices: dict | None = None) -> list[Standing]:
    """The entries with their rows, grouped by coverage (the fullest first), each group ranked on its
    own: best overall success first (the higher interval breaks a tie)."""
    ranked = [dataclasses.replace(entry, episodes=[t for t in entry.episodes if not trained_on(t)]) for entry in entries]
    standings = [_standing(entry, prices) for entry in ranked if entry.episodes]
    _describe_coverages(standings)
    standings.sort(key=lambda s: (_fullest_first(s), -s.overall["success_mean"], -s.overall["success_low"],
                                  s.entry.name))
    for group in groups(standings):
        _rank_group(group)
    for place, standing in enumerate(standings, start=1):
        standing.place = place
    return standings


def trained_on(trajectory: Trajectory) -> bool:
    """An episode of one of the expert suite's train templates (the board ranks its test split alone)."""
    suite = protocol_of(trajectory.settings).name
    return suite in SUITES and split_of(SUITES[suite], trajectory.task) == "train"


def split_note(entries: list[Entry]) -> str:
    """What the board says of the expert suite's split, when a run played that suite; else ""."""
    played = [t for entry in entries for t in entry.episodes if protocol_of(t.settings).name == "expert"]
    if not played:
        return ""
    left_out = sum(trained_on(t) for t in played)
    return ("The expert suite is ranked on its test split only (its train templates are for training)"
            + (f": {left_out} episodes of train templates left out." if left_out else "."))


def groups(standings: list[Standing]) -> list[list[Standing]]:
    """The ranked standings in their coverage groups, in order."""
    return [list(group) for _, group in groupby(standings, key=lambda s: s.coverage)]


def describe_coverage(coverage: Coverage, union: Coverage) -> str:
    """What a run covers out of what all runs cover, in words; what it covers in full is left out."""
    parts = []
    for (plural, _), values, everything in zip(DIMENSIONS, coverage, union):
        if values != everything:
            left_out = sorted(everything - values, key=task_order)
            names = (", ".join(sorted(values, key=task_order)) if len(values) <= len(left_out)
                     else "without " + ", ".join(left_out))
            parts.append(f"{len(values)} of {len(everything)} {plural}: {names}")
    return "; ".join(parts) or f"all {len(union[0])} tasks"


def _describe_coverages(standings: list[Standing]) -> None:
    union = tuple(frozenset().union(*values) for values in zip(*(s.coverage for s in standings)))
    for standing in standings:
        standing.covers, standing.partial = describe_coverage(standing.coverage, union), standing.coverage != union


def _fullest_first(standing: Standing) -> tuple:
    return tuple(-len(values) for values in standing.coverage), standing.covers


def _rank_group(group: list[Standing]) -> None:
    leader = group[0].overall
    for place, standing in enumerate(group, start=1):
        standing.rank = place
        standing.separable = None if place == 1 else standing.overall["success_high"] < leader["success_low"]


def _standing(entry: Entry, prices: dict | None) -> Standing:
    suites: dict[str, list[Trajectory]] = {}
    for t in entry.episodes:
        suites.setdefault(protocol_of(t.settings).name, []).append(t)
    rows = {row["task"]: row for row in summarize(entry.episodes)}
    tokens = [int(t.usage.get("prompt_tokens", 0)) + int(t.usage.get("completion_tokens", 0)) for t in entry.episodes]
    overall = _overall(entry.episodes)
    return Standing(entry, 0, overall,
                    {suite: _overall(found) if len(suites) > 1 else overall for suite, found in sorted(suites.items())},
                    dict(sorted(rows.items(), key=lambda item: task_order(item[0]))), sum(tokens),
                    _cost(entry, prices) if any(tokens) else None,
                    coverage=tuple(frozenset(read(t) for t in entry.episodes) for _, read in DIMENSIONS))


def _overall(episodes: list[Trajectory]) -> dict:
    return summarize_overall([dataclasses.replace(t, label="run") for t in episodes])[0]


def _cost(entry: Entry, prices: dict | None) -> float | None:
    costs = [episode_cost(t.usage, (t.settings or {}).get("model") or entry.provenance.get("model"), prices)
             for t in entry.episodes if t.usage.get("prompt_tokens") or t.usage.get("completion_tokens")]
    return None if not costs or None in costs else math.fsum(costs)


def columns(standings: list[Standing]) -> tuple[list[str], list[str]]:
    """The suites and the tasks any ranked run has, in order."""
    suites = sorted({suite for s in standings for suite in s.suites})
    tasks = sorted({task for s in standings for task in s.tasks}, key=task_order)
    return suites, tasks


def csv_rows(standings: list[Standing]) -> list[dict]:
    return [{"rank": s.place, "coverage": s.covers, "coverage_rank": s.rank, "run": s.entry.name,
             "label": s.entry.label, "episodes": s.overall["episodes"],
             "success": s.overall["success_mean"], "success_low": s.overall["success_low"],
             "success_high": s.overall["success_high"],
             "separable": "leader" if s.separable is None else "yes" if s.separable else "no",
             "pass_k": s.overall["pass_k"], "k": s.overall["k"], "under_policy": s.overall.get("under_policy_rate", ""),
             "tokens": s.tokens, "cost": "" if s.cost is None else s.cost,
             "seconds_per_task": s.overall.get("seconds_mean", ""),  # a person's play only
             **{field: s.overall.get(field, "") for field in VIOLATION_FIELDS},
             **{key: s.entry.provenance.get(key) or "" for key in ("method", "model", "git_commit")}}
            for s in standings]
