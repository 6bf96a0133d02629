"""From trajectory files to the papers' table: per task, success / progress / #actions as
mean ± standard error over the finished episodes, one column group per method; pass^k when seeds
were replayed; and how many episodes crashed or are incomplete (planned by the run but not
finished). The standard error of a single episode is not known: it is shown as `n/a`. #actions is
what the episode's protocol counts (agent/protocols.py): the page events the server recorded, or
the agent's actions."""
from __future__ import annotations

import csv
import json
import math
from collections import defaultdict
from pathlib import Path
from statistics import mean, stdev

from .protocols import protocol_of
from .tasks import ALL_TASKS

METRICS = (("success", "success"), ("progress", "task_progress"), ("#actions", "num_actions"))
CSV_FIELDS = ["method", "shots", "protocol", "task", "episodes", "crashed", "incomplete", "success_mean", "success_se",
              "progress_mean", "progress_se", "actions_mean", "actions_se", "k", "pass_k", "prompt_tokens",
              "completion_tokens", "llm_calls", "cached_calls", "embedding_tokens"]
STATUS_COLUMNS = ("crashed", "incomplete")
UNKNOWN = "n/a"
TOKEN_COLUMNS = (("prompt tokens", "prompt_tokens"), ("completion tokens", "completion_tokens"))
EMBEDDING_COLUMN = ("embedding tokens", "embedding_tokens")
ALL_TASKS_ROW = "all tasks"


def load_trajectories(out: Path) -> list[dict]:
    """Every trajectory file under `out`, finished or not (crashed, interrupted)."""
    return [data for _, data in _all_files(out)]


def trajectory_files(out: Path) -> list[tuple[Path, dict]]:
    """(file, trajectory) of every complete episode under `out` (OUT/<label>/<task>/<episode>.json)."""
    return [(path, data) for path, data in _all_files(out) if data.get("complete")]


def _all_files(out: Path) -> list[tuple[Path, dict]]:
    found = []
    for path in sorted(Path(out).glob("*/*/*.json")):
        try:
            data = json.loads(path.read_text())
        except ValueError:
            continue
        if isinstance(data, dict):
            found.append((path, data))
    return found


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


def summarize(trajectories: list[dict], planned=()) -> list[dict]:
    """One row per (method label, task); the label tells zero- from few-shot runs of a method.
    `planned` holds (label, task, seed, trial) of the episodes the runs set out to play; those with
    no trajectory count as incomplete."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for trajectory in trajectories:
        groups[(trajectory.get("label") or trajectory["method"], trajectory["task"])].append(trajectory)
    seen = {(label, task, t.get("seed"), t.get("trial", 0)) for (label, task), runs in groups.items() for t in runs}
    missing: dict[tuple[str, str], int] = defaultdict(int)
    for label, task, seed, trial in planned:
        if (label, task, seed, trial) not in seen:
            missing[(label, task)] += 1
            groups.setdefault((label, task), [])
    rows = []
    for (label, task), found in sorted(groups.items(), key=lambda item: (item[0][0], task_order(item[0][1]))):
        runs = [r for r in found if r.get("complete")]
        crashed = sum(1 for r in found if not r.get("complete") and r.get("crash"))
        row = {"method": label, "shots": found[0].get("shots", "") if found else "",
               "protocol": protocol_of(found[0].get("settings") if found else None).name, "task": task,
               "episodes": len(runs), "crashed": crashed,
               "incomplete": len(found) - len(runs) - crashed + missing[(label, task)]}
        for name, key in METRICS:
            column = "actions" if name == "#actions" else name
            row[f"{column}_mean"], row[f"{column}_se"] = mean_se([metric(r, key) for r in runs])
        row.update(_pass_k(runs))
        row.update(_usage_totals(runs))
        rows.append(row)
    return rows


def metric(trajectory: dict, key: str) -> float:
    """A METRICS value of a finished episode; `num_actions` as the episode's protocol counts it."""
    if key == "num_actions" and protocol_of(trajectory.get("settings")).counts_agent_actions:
        return float(trajectory["agent_actions"])
    return float(trajectory["metrics"].get(key, 0))


def summarize_overall(trajectories: list[dict]) -> list[dict]:
    """One row per label over all tasks (ALL_TASKS_ROW), each episode counted once."""
    return summarize([{**t, "task": ALL_TASKS_ROW, "seed": f"{t['task']}/{t['seed']}"} for t in trajectories])


def _pass_k(runs: list[dict]) -> dict:
    by_seed: dict[int, list[int]] = defaultdict(list)
    for r in runs:
        by_seed[r["seed"]].append(int(r["metrics"].get("success", 0)))
    k = min((len(v) for v in by_seed.values()), default=0)
    return {"k": k, "pass_k": pass_hat_k(list(by_seed.values()), k) if k > 1 else ""}


def _usage_totals(runs: list[dict]) -> dict:
    """Model usage summed over the episodes (0 for policies without a model)."""
    total = lambda key: sum(int((r.get("usage") or {}).get(key, 0)) for r in runs)  # noqa: E731
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


def format_table(rows: list[dict]) -> str:
    """Rows are tasks, each method a group of columns: success, progress, #actions (mean ± se)."""
    methods = sorted({r["method"] for r in rows})
    tasks = sorted(dict.fromkeys(r["task"] for r in rows), key=task_order)
    cells = {(r["method"], r["task"]): r for r in rows}
    show_pass = any(r["pass_k"] != "" for r in rows)
    show_tokens = any(r.get("prompt_tokens") or r.get("completion_tokens") for r in rows)
    show_embedding = any(r.get("embedding_tokens") for r in rows)
    names = ([name for name, _ in METRICS] + (["pass^k"] if show_pass else [])
             + ([name for name, _ in TOKEN_COLUMNS] if show_tokens else [])
             + ([EMBEDDING_COLUMN[0]] if show_embedding else []) + list(STATUS_COLUMNS))
    header = ["task"] + [f"{m} {n}" for m in methods for n in names]
    body = []
    for task in tasks:
        line = [task]
        for method in methods:
            row = cells.get((method, task))
            line += [format_cell(row, name) for name in names]
        body.append(line)
    widths = [max(len(str(x[i])) for x in [header] + body) for i in range(len(header))]
    render = lambda cols: "  ".join(str(c).ljust(w) for c, w in zip(cols, widths)).rstrip()  # noqa: E731
    return "\n".join([render(header), render(["-" * w for w in widths])] + [render(b) for b in body])


def task_order(task: str) -> tuple[int, str]:
    """The papers' order for the six tasks; any other name after them, alphabetically."""
    return (ALL_TASKS.index(task) if task in ALL_TASKS else len(ALL_TASKS), task)


def format_cell(row: dict | None, name: str) -> str:
    """One cell of the table (a METRICS name, "pass^k" or a token column) for a summarize() row."""
    if row is None:
        return "-"
    tokens = dict(TOKEN_COLUMNS + (EMBEDDING_COLUMN,))
    if name in tokens:
        return str(row.get(tokens[name], 0))
    if name in STATUS_COLUMNS:
        return str(row[name])
    if name == "pass^k":
        return f"{row['pass_k']:.2f} (k={row['k']})" if row["pass_k"] != "" else "-"
    column = "actions" if name == "#actions" else name
    digits = 1 if name == "#actions" else 2
    average, error = row[column + "_mean"], row[column + "_se"]
    if math.isnan(average):
        return "-"
    return f"{average:.{digits}f} ± {UNKNOWN if math.isnan(error) else f'{error:.{digits}f}'}"
