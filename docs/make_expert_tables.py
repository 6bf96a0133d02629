"""The tables of docs/expert-suite.md, computed from the code: the suite's structure per template
(seed 0) and the width of the task-clustered 95 % interval of an agent that solves half the
templates it meets. `python docs/make_expert_tables.py` prints them; tests/scenarios/
test_expert_docs.py checks that the page holds what it prints.

Run from the repository's root with the project's environment (.venv/bin/python)."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.results.intervals import cluster_bootstrap, wilson  # noqa: E402
from scenarios.app import create_app  # noqa: E402
from scenarios.steps import CALL_STEPS  # noqa: E402
from scenarios.store import World, describe  # noqa: E402
from scenarios.suites import split_of, suite_named  # noqa: E402

from crm_app.db import get_session  # noqa: E402


def structure(world: World) -> list[str]:
    """A Markdown row per template: its split, kinds, bookings, gold steps and calls, refusals, transfers."""
    suite = suite_named("expert")
    rows = ["| template | split | requests (kinds, in order) | bookings | gold steps (page + call) | gold calls "
            "| refused | transfers |", "|---|---|---|---:|---:|---:|---:|---:|"]
    for task in suite.tasks:
        sample, told = describe(world, task, 0, suite)
        details = told["details"]
        gold, calls = task.gold(details), task.gold_calls(details)
        said = sum(step["action"] in CALL_STEPS for step in gold)
        outcomes = [request["expected"]["outcome"] for request in details["requests"]]
        kinds = ", ".join(request["kind"] + (" (if)" if request.get("conditional") else "") +
                          (" (revised)" if "revision" in request else "") for request in details["requests"])
        rows.append(f"| {task.name} | {split_of(suite, task.name)} | {kinds} | {len(sample.setup)} | "
                    f"{len(gold) - said} + {said} | {len(calls)} | {outcomes.count('refused')} | "
                    f"{outcomes.count('transfer')} |")
    return rows


def interval_widths() -> list[str]:
    """The 95 % interval of a success rate of 50 %, one seed per template (each template a cluster)."""
    rows = ["| suite | templates | Wilson interval | width | clustered bootstrap | width |", "|---|---:|---|---:|---|---:|"]
    for name in ("hard", "expert"):
        count = len(suite_named(name).task_names)
        half = [[1.0] if i % 2 == 0 else [0.0] for i in range(count)]
        low, high = wilson(sum(c[0] for c in half), count)
        b_low, b_high = cluster_bootstrap(half)
        rows.append(f"| {name} | {count} | [{low:.3f}, {high:.3f}] | {high - low:.3f} | [{b_low:.3f}, {b_high:.3f}] "
                    f"| {b_high - b_low:.3f} |")
    return rows


def tables() -> str:
    folder = tempfile.mkdtemp(prefix="expert-tables-")
    app = create_app({"DATABASE_URL": f"sqlite:///{folder}/crm.db", "INSTANCE_PATH": folder})
    with app.app_context():
        world = World.of(app, get_session())
        return "\n".join([*interval_widths(), "", *structure(world)])


if __name__ == "__main__":
    print(tables())
