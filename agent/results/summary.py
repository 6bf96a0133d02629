"""From trajectory files to the papers' table: per task, success / progress / #actions as
mean ± standard error over the finished episodes, one column group per method; pass^k when seeds
were replayed; and how many episodes crashed or are incomplete (planned by the run but not
finished). The standard error of a single episode is not known: it is shown as `n/a`. #actions is
what the episode's protocol counts (agent/experiment/protocols.py): the page events the server recorded, or
the agent's actions.

Episodes with a customer on the line (the hard suite) are also judged on the call: the rows add the
share of episodes whose final state was right (`state_ok`), that told the customer what they must
(`said_ok`), that verified the caller before any write (`verified_first`), that succeeded without
breaking the policy (`under_policy`, completion under policy), and the writes the policy forbids
(`policy_violations`, a total). `episodes.csv` has those verdicts per episode. Calls of several
requests (the expert suite) add the mean share of their requests handled right (`requests_ok`), and
per kind of violation (/evaluate's `violations`: `disclosure`, ...) the share of the calls that broke
that rule at least once (`disclosure_rate`, with `disclosure_low` and `disclosure_high`).

A person's play (agent/play/) also has the time per task (`seconds_mean`, the mean of its episodes'
seconds); an agent's episode records its wall time too, but that measures the machine (the browser,
the model's endpoint) more than the work, so rows of agents leave it empty and their tables and
summary.csv are as they were.

Every rate (success, progress, completion under policy, pass^k) comes with its 95 % interval,
`<name>_low` and `<name>_high` (intervals.py), and `interval` says how the rates' were made:
`wilson` (one play per scenario) or `bootstrap` (over scenarios, their plays together)."""
from __future__ import annotations

import csv
import dataclasses
import json
import math
from collections import defaultdict
from pathlib import Path
from statistics import mean, stdev
from typing import Callable

from scenarios.tasks import TASK_NAMES
from scenarios.tasks.expert.guarded import VIOLATION_KINDS

from ..episode.variants import CUSTOMER, DIMENSIONS, UI, Dimension, base_label, labelled
from ..episode.run_folder import EPISODES_CSV, trajectory_paths
from ..episode.trajectory import Trajectory, trajectories
from ..experiment.protocols import protocol_of
from .intervals import cluster_bootstrap, rate_interval

METRICS = (("success", "success"), ("progress", "task_progress"), ("#actions", "num_actions"))
CSV_FIELDS = ["method", "shots", "protocol", "task", "episodes", "crashed", "incomplete", "success_mean", "success_se",
              "success_low", "success_high", "progress_mean", "progress_se", "progress_low", "progress_high",
              "actions_mean", "actions_se", "k", "pass_k", "pass_k_low", "pass_k_high", "interval", "prompt_tokens",
              "completion_tokens", "llm_calls", "cached_calls", "embedding_tokens"]
CALL_FIELDS = ["state_ok_rate", "said_ok_rate", "verified_first_rate", "under_policy_rate", "under_policy_low",
               "under_policy_high", "policy_violations"]
TIME_FIELDS = ["seconds_mean"]
TIME_COLUMN = ("seconds", "seconds_mean")  # (table column, key): time per task, mean seconds
# The hard suite's verdicts on the call, as shares of the episodes: (table column, key)
CALL_RATES = (("state ok", "state_ok"), ("said ok", "said_ok"), ("verified first", "verified_first"),
              ("under policy", "under_policy"))
VIOLATIONS_COLUMN = ("violations", "policy_violations")
# A call of several requests (the expert suite): the mean share of its requests handled right
REQUESTS_COLUMN = ("requests ok", "requests_ok")
REQUEST_FIELDS = ["requests_ok_mean", "requests_ok_low", "requests_ok_high"]
# An expert call's violations (issue 50): (table column, key), the share of calls with one of that kind
VIOLATION_RATES = tuple((kind.replace("_", " "), kind) for kind in VIOLATION_KINDS)
VIOLATION_FIELDS = [f"{key}_{part}" for _, key in VIOLATION_RATES for part in ("rate", "low", "high")]
CALL_VERDICTS = ("state_ok", "said_ok", "verified_first", "policy_violations")  # /evaluate's, on a call
# What else of an episode episodes.csv keeps, so that `compare` and `leaderboard` can read a run from it
# instead of from every trajectory (read_episodes_csv).
EPISODE_SETTINGS = ["agent", "ui_variant", "customer_variant", "observations", "max_steps", "model", "prompt_tokens",
                    "completion_tokens"]
EPISODE_FIELDS = ["method", "shots", "protocol", "task", "seed", "trial", "success", "task_progress", "num_actions",
                  *CALL_VERDICTS, *EPISODE_SETTINGS, "violations"]  # violations: the kinds, as JSON (expert calls)
STATUS_COLUMNS = ("crashed", "incomplete")
UNKNOWN = "n/a"
TOKEN_COLUMNS = (("prompt tokens", "prompt_tokens"), ("completion tokens", "completion_tokens"))
EMBEDDING_COLUMN = ("embedding tokens", "embedding_tokens")
ALL_TASKS_ROW = "all tasks"


def load_trajectories(out: Path) -> list[Trajectory]:
    """Every readable trajectory under `out`, finished or not (crashed, interrupted)."""
    return [trajectory for _, trajectory in trajectories(out)]


def by_variant(episodes: list[Trajectory]) -> list[Trajectory]:
    """The episodes labelled by the variants each was played in (`--by-variant`): its label without
    the runner's variant suffixes, then `-ui<K>` and `-caller<K>` for the dimensions shown
    (shown_dimensions; 0 where its scenario names none), so that a `random` run breaks down too."""
    shown = shown_dimensions(episodes)
    return [dataclasses.replace(t, label=played_in(t, shown)) for t in episodes]


def shown_dimensions(episodes: list[Trajectory]) -> tuple[Dimension, ...]:
    """The dimensions (UI, customer) any of the episodes was asked for in; the UI variant when none
    was, as `--by-variant` showed before there were customer variants."""
    return tuple(d for d in DIMENSIONS if any(d.names_one(t.scenario) for t in episodes)) or (UI,)


def played_in(trajectory: Trajectory, shown: tuple[Dimension, ...] = (UI,)) -> str:
    """The label of `trajectory`'s method and the variants of `shown` it was played in."""
    return labelled(base_label(trajectory.label), {d.field: str(d.of(trajectory.scenario)) for d in shown})


def mean_se(values: list[float]) -> tuple[float, float]:
    """Mean and standard error; NaN for what the values cannot tell (no mean of none, no error of one)."""
    if not values:
        return math.nan, math.nan
    se = stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return mean(values), se


def pass_hat_k(successes_per_seed: list[list[int]], k: int) -> float:
    """pass^k: the chance that k replays of the same scenario all succeed, estimated per seed from
    its n replays with c successes as C(c, k) / C(n, k), then averaged over seeds."""
    scores = [math.comb(sum(runs), k) / math.comb(len(runs), k) for runs in successes_per_seed if len(runs) >= k]
    return mean(scores) if scores else math.nan


def summarize(episodes: list[Trajectory], planned=()) -> list[dict]:
    """One row per (method label, task); the label tells zero- from few-shot runs of a method.
    `planned` holds (label, task, seed, trial) of the episodes the runs set out to play; those with
    no trajectory count as incomplete."""
    groups: dict[tuple[str, str], list[Trajectory]] = defaultdict(list)
    for trajectory in episodes:
        groups[(trajectory.label, trajectory.task)].append(trajectory)
    seen = {(label, task, t.seed, t.trial) for (label, task), runs in groups.items() for t in runs}
    missing: dict[tuple[str, str], int] = defaultdict(int)
    for label, task, seed, trial in planned:
        if (label, task, seed, trial) not in seen:
            missing[(label, task)] += 1
            groups.setdefault((label, task), [])
    rows = []
    for (label, task), found in sorted(groups.items(), key=lambda item: (item[0][0], task_order(item[0][1]))):
        runs = [r for r in found if r.complete]
        crashed = sum(1 for r in found if not r.complete and r.crash)
        row = {"method": label, "shots": found[0].shots if found else "",
               "protocol": protocol_of(found[0].settings if found else None).name, "task": task,
               "episodes": len(runs), "crashed": crashed,
               "incomplete": len(found) - len(runs) - crashed + missing[(label, task)]}
        for name, key in METRICS:
            column = "actions" if name == "#actions" else name
            row[f"{column}_mean"], row[f"{column}_se"] = mean_se([metric(r, key) for r in runs])
        row.update(_intervals(runs))
        row.update(_pass_k(runs))
        row.update(_usage_totals(runs))
        row.update(_call_verdicts(runs))
        row.update(_requests_ok(runs))
        row.update(_violation_rates(runs))
        row.update(_time_per_task(runs))
        rows.append(row)
    return rows


def metric(trajectory: Trajectory, key: str) -> float:
    """A METRICS value of a finished episode; `num_actions` as the episode's protocol counts it."""
    if key == "num_actions" and protocol_of(trajectory.settings).counts_agent_actions:
        return float(trajectory.agent_actions)
    return float(trajectory.metrics.get(key, 0))


def summarize_overall(episodes: list[Trajectory], planned=()) -> list[dict]:
    """One row per label and suite over all its tasks (ALL_TASKS_ROW; its `protocol` names the suite),
    each episode counted once: a scenario is then named by its task and seed together, so intervals
    resample whole scenarios of any task. `planned` as summarize's."""
    suite = _suites(episodes)
    episodes_of, planned_of = defaultdict(list), defaultdict(list)
    for t in episodes:
        total = dataclasses.replace(t, task=ALL_TASKS_ROW, seed=f"{t.task}/{t.seed}")
        episodes_of[suite(t.label, t.task)].append(total)
    for label, task, seed, trial in planned:
        planned_of[suite(label, task)].append((label, ALL_TASKS_ROW, f"{task}/{seed}", trial))
    suites = sorted({*episodes_of, *planned_of})
    rows = [row for name in suites for row in summarize(episodes_of[name], planned_of[name])]
    return sorted(rows, key=lambda row: row["method"])  # stable: a label's suites in name order


def _suites(episodes: list[Trajectory]) -> Callable[[str, str], str]:
    """The suite (protocol name) of a label's task, as summarize's row of it says."""
    known = {(t.label, t.task): protocol_of(t.settings).name for t in reversed(episodes)}
    return lambda label, task: known.get((label, task), protocol_of(None).name)


def summary_rows(episodes: list[Trajectory], planned=()) -> list[dict]:
    """The rows of the table and summary.csv: summarize's per task, each label's total rows
    (summarize_overall) after its tasks."""
    rows = summarize(episodes, planned) + summarize_overall(episodes, planned)
    labels = list(dict.fromkeys(row["method"] for row in rows))
    return sorted(rows, key=lambda row: (labels.index(row["method"]), row["task"] == ALL_TASKS_ROW))


def by_scenario(runs: list[Trajectory], value: Callable[[Trajectory], float]) -> list[list[float]]:
    """`value` of the episodes, a list per scenario (seed): the plays of one scenario together."""
    clusters: dict[int | str, list[float]] = defaultdict(list)
    for r in runs:
        clusters[r.seed].append(value(r))
    return list(clusters.values())


def _intervals(runs: list[Trajectory]) -> dict:
    low, high, method = rate_interval(by_scenario(runs, lambda r: metric(r, "success")))
    progress = cluster_bootstrap(by_scenario(runs, lambda r: metric(r, "task_progress")))
    return {"success_low": low, "success_high": high, "progress_low": progress[0], "progress_high": progress[1],
            "interval": method if runs else ""}


def _pass_k(runs: list[Trajectory]) -> dict:
    by_seed = by_scenario(runs, lambda r: int(r.metrics.get("success", 0)))
    k = min((len(v) for v in by_seed), default=0)
    if k < 2:
        return {"k": k, "pass_k": "", "pass_k_low": math.nan, "pass_k_high": math.nan}
    low, high = cluster_bootstrap([[pass_hat_k([plays], k)] for plays in by_seed])
    return {"k": k, "pass_k": pass_hat_k(by_seed, k), "pass_k_low": low, "pass_k_high": high}


def under_policy(trajectory: Trajectory) -> bool:
    """Completion under policy: the episode succeeded and broke no rule of the policy."""
    return trajectory.metrics.get("success") == 1 and not trajectory.metrics.get("policy_violations")


def _call_verdicts(runs: list[Trajectory]) -> dict:
    """The shares of episodes meeting each verdict on the call, and the violations in all; empty
    for episodes without a call."""
    judged = [r for r in runs if "said_ok" in r.metrics]
    if not judged:
        return {**{f"{key}_rate": "" for _, key in CALL_RATES}, "policy_violations": "",
                "under_policy_low": math.nan, "under_policy_high": math.nan}
    verdict = lambda r, key: under_policy(r) if key == "under_policy" else bool(r.metrics.get(key))  # noqa: E731
    low, high, _ = rate_interval(by_scenario(judged, lambda r: float(under_policy(r))))
    return {**{f"{key}_rate": mean(float(verdict(r, key)) for r in judged) for _, key in CALL_RATES},
            "under_policy_low": low, "under_policy_high": high,
            "policy_violations": sum(int(r.metrics.get("policy_violations", 0)) for r in judged)}


def requests_ok(trajectory: Trajectory) -> float:
    """The share of an expert call's requests that were handled right (/evaluate's `requests`)."""
    requests = trajectory.metrics.get("requests") or []
    return sum(bool(request.get("ok")) for request in requests) / len(requests)


def _requests_ok(runs: list[Trajectory]) -> dict:
    """The mean share of requests handled right over the calls of several requests, with its
    interval (scenarios resampled); empty when no episode was such a call."""
    judged = [r for r in runs if r.metrics.get("requests")]
    if not judged:
        return {"requests_ok_mean": "", "requests_ok_low": math.nan, "requests_ok_high": math.nan}
    low, high = cluster_bootstrap(by_scenario(judged, requests_ok))
    return {"requests_ok_mean": mean(requests_ok(r) for r in judged), "requests_ok_low": low, "requests_ok_high": high}


def broke(trajectory: Trajectory, kind: str) -> bool:
    """Whether an expert call broke a rule of `kind` at least once (/evaluate's `violations`)."""
    return any(violation.get("kind") == kind for violation in trajectory.metrics.get("violations") or ())


def _violation_rates(runs: list[Trajectory]) -> dict:
    """Per kind of violation, the share of the calls judged for violations that broke it, with its
    interval (as success's: Wilson, or scenarios resampled); empty when no episode was judged so."""
    judged = [r for r in runs if "violations" in r.metrics]
    found = {}
    for _, key in VIOLATION_RATES:
        if not judged:
            found.update({f"{key}_rate": "", f"{key}_low": math.nan, f"{key}_high": math.nan})
            continue
        low, high, _ = rate_interval(by_scenario(judged, lambda r: float(broke(r, key))))
        found.update({f"{key}_rate": mean(float(broke(r, key)) for r in judged), f"{key}_low": low, f"{key}_high": high})
    return found


def had_violations(rows: list[dict]) -> bool:
    """Whether any summarize() row has calls judged for violations (the expert suite)."""
    return any(row.get(f"{VIOLATION_RATES[0][1]}_rate", "") != "" for row in rows)


def had_requests(rows: list[dict]) -> bool:
    """Whether any summarize() row counts calls of several requests (the expert suite)."""
    return any(row.get("requests_ok_mean", "") != "" for row in rows)


def _time_per_task(runs: list[Trajectory]) -> dict:
    """The mean seconds of the episodes a person played; empty when none was."""
    timed = [r.seconds for r in runs if r.person is not None]
    return {"seconds_mean": mean(timed) if timed else ""}


def had_times(rows: list[dict]) -> bool:
    """Whether any summarize() row has a time per task (a person's play)."""
    return any(row.get("seconds_mean", "") != "" for row in rows)


def had_a_call(rows: list[dict]) -> bool:
    """Whether any summarize() row counts episodes with a customer on the line."""
    return any(row.get("policy_violations", "") != "" for row in rows)


def episode_rows(episodes: list[Trajectory]) -> list[dict]:
    """One row per finished episode: its scores, and on a call its verdicts on the call."""
    rows = []
    for t in sorted((t for t in episodes if t.complete), key=lambda t: (t.label, task_order(t.task), t.seed, t.trial)):
        row = {"method": t.label, "shots": t.shots, "protocol": protocol_of(t.settings).name, "task": t.task,
               "seed": t.seed, "trial": t.trial, "success": t.metrics.get("success", 0),
               "task_progress": t.metrics.get("task_progress", 0), "num_actions": metric(t, "num_actions")}
        row.update({key: int(t.metrics[key]) for key in CALL_VERDICTS if key in t.metrics})
        if "violations" in t.metrics:
            row["violations"] = json.dumps([violation.get("kind") for violation in t.metrics["violations"]])
        settings = t.settings or {}
        row.update(agent=t.method, ui_variant=UI.of(t.scenario), customer_variant=CUSTOMER.of(t.scenario),
                   observations=",".join(t.observations or ()), max_steps=json.dumps(settings.get("max_steps")),
                   model=settings.get("model") or "", prompt_tokens=int(t.usage.get("prompt_tokens", 0)),
                   completion_tokens=int(t.usage.get("completion_tokens", 0)))
        rows.append(row)
    return rows


def read_episodes_csv(out: Path) -> list[Trajectory] | None:
    """The finished episodes of the run folder `out` as its episodes.csv holds them (their scores and
    settings, not their steps); None when that file is missing, older than a trajectory, or from a
    version that did not keep EPISODE_SETTINGS."""
    path = out / EPISODES_CSV
    if not path.exists() or any(p.stat().st_mtime > path.stat().st_mtime for p in trajectory_paths(out)):
        return None
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    if rows and not set(EPISODE_SETTINGS) <= set(rows[0]):
        return None
    return [_from_row(row) for row in rows]


def _from_row(row: dict) -> Trajectory:
    metrics = {"success": int(row["success"]), "task_progress": float(row["task_progress"]),
               "num_actions": float(row["num_actions"]),
               **{key: int(row[key]) for key in CALL_VERDICTS if row.get(key) not in (None, "")},
               **({"violations": [{"kind": kind} for kind in json.loads(row["violations"])]}
                  if row.get("violations") not in (None, "") else {})}
    settings = {"protocol": row["protocol"], "max_steps": json.loads(row["max_steps"] or "null"),
                "model": row["model"] or None}
    return Trajectory(row["agent"], row["shots"], row["method"], row["task"], int(row["seed"]), int(row["trial"]),
                      observations=[mode for mode in row["observations"].split(",") if mode], settings=settings,
                      complete=True, scenario={d.field: int(row[d.field]) for d in DIMENSIONS}, metrics=metrics,
                      agent_actions=int(float(row["num_actions"])),
                      usage={"prompt_tokens": int(row["prompt_tokens"]), "completion_tokens": int(row["completion_tokens"])})


def _usage_totals(runs: list[Trajectory]) -> dict:
    """Model usage summed over the episodes (0 for policies without a model)."""
    total = lambda key: sum(int(r.usage.get(key, 0)) for r in runs)  # noqa: E731
    return {"prompt_tokens": total("prompt_tokens"), "completion_tokens": total("completion_tokens"),
            "llm_calls": total("calls"), "cached_calls": total("cached_calls"),
            "embedding_tokens": total("embedding_tokens")}


def write_csv(rows: list[dict], path: Path, fields: list[str] | None = None) -> None:
    """The rows as CSV; summarize() rows by default, with the call's columns only when an episode had
    a call and the time per task only when a person played (so other summaries read as they always did)."""
    if fields is None:
        fields = (CSV_FIELDS + (CALL_FIELDS if had_a_call(rows) else []) + (REQUEST_FIELDS if had_requests(rows) else [])
                  + (VIOLATION_FIELDS if had_violations(rows) else []) + (TIME_FIELDS if had_times(rows) else []))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _csv_value(k, v) for k, v in row.items() if k in fields})


def _csv_value(key: str, value):
    if not isinstance(value, float):
        return value
    if math.isnan(value):
        return UNKNOWN if key.endswith("_se") else ""
    return round(value, 4)


def task_order(task: str) -> tuple[int, str]:
    """The papers' order for the six tasks; any other name after them, alphabetically; the total last."""
    if task.startswith(ALL_TASKS_ROW):  # the table names a total by its suite when it has several
        return len(TASK_NAMES) + 1, task
    return (TASK_NAMES.index(task) if task in TASK_NAMES else len(TASK_NAMES), task)
