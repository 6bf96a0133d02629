"""From trajectory files to the papers' table: per task, success / progress / #actions as
mean ± standard error over the finished episodes, one column group per method; pass^k when seeds
were replayed; and how many episodes crashed or are incomplete (planned by the run but not
finished). The standard error of a single episode is not known: it is shown as `n/a`. #actions is
what the episode's protocol counts (agent/experiment/protocols.py): the page events the server recorded, or
the agent's actions."""
from __future__ import annotations

import csv
import dataclasses
import math
from collections import defaultdict
from pathlib import Path
from statistics import mean, stdev

from scenarios.tasks import TASK_NAMES

from ..episode.trajectory import Trajectory, trajectories
from ..experiment.protocols import protocol_of

METRICS = (("success", "success"), ("progress", "task_progress"), ("#actions", "num_actions"))
CSV_FIELDS = ["method", "shots", "protocol", "task", "episodes", "crashed", "incomplete", "success_mean", "success_se",
              "progress_mean", "progress_se", "actions_mean", "actions_se", "k", "pass_k", "prompt_tokens",
              "completion_tokens", "llm_calls", "cached_calls", "embedding_tokens"]
STATUS_COLUMNS = ("crashed", "incomplete")
UNKNOWN = "n/a"
TOKEN_COLUMNS = (("prompt tokens", "prompt_tokens"), ("completion tokens", "completion_tokens"))
EMBEDDING_COLUMN = ("embedding tokens", "embedding_tokens")
ALL_TASKS_ROW = "all tasks"


def load_trajectories(out: Path) -> list[Trajectory]:
    """Every readable trajectory under `out`, finished or not (crashed, interrupted)."""
    return [trajectory for _, trajectory in trajectories(out)]


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
        row.update(_pass_k(runs))
        row.update(_usage_totals(runs))
        rows.append(row)
    return rows


def metric(trajectory: Trajectory, key: str) -> float:
    """A METRICS value of a finished episode; `num_actions` as the episode's protocol counts it."""
    if key == "num_actions" and protocol_of(trajectory.settings).counts_agent_actions:
        return float(trajectory.agent_actions)
    return float(trajectory.metrics.get(key, 0))


def summarize_overall(episodes: list[Trajectory]) -> list[dict]:
    """One row per label over all tasks (ALL_TASKS_ROW), each episode counted once: a scenario is
    then named by its task and seed together."""
    return summarize([dataclasses.replace(t, task=ALL_TASKS_ROW, seed=f"{t.task}/{t.seed}") for t in episodes])


def _pass_k(runs: list[Trajectory]) -> dict:
    by_seed: dict[int | str, list[int]] = defaultdict(list)
    for r in runs:
        by_seed[r.seed].append(int(r.metrics.get("success", 0)))
    k = min((len(v) for v in by_seed.values()), default=0)
    return {"k": k, "pass_k": pass_hat_k(list(by_seed.values()), k) if k > 1 else ""}


def _usage_totals(runs: list[Trajectory]) -> dict:
    """Model usage summed over the episodes (0 for policies without a model)."""
    total = lambda key: sum(int(r.usage.get(key, 0)) for r in runs)  # noqa: E731
    return {"prompt_tokens": total("prompt_tokens"), "completion_tokens": total("completion_tokens"),
            "llm_calls": total("calls"), "cached_calls": total("cached_calls"),
            "embedding_tokens": total("embedding_tokens")}


def write_csv(rows: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _csv_value(k, v) for k, v in row.items()})


def _csv_value(key: str, value):
    if not isinstance(value, float):
        return value
    if math.isnan(value):
        return UNKNOWN if key.endswith("_se") else ""
    return round(value, 4)


def task_order(task: str) -> tuple[int, str]:
    """The papers' order for the six tasks; any other name after them, alphabetically."""
    return (TASK_NAMES.index(task) if task in TASK_NAMES else len(TASK_NAMES), task)
