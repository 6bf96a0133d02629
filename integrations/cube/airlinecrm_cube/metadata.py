"""The benchmark's tasks as data: task_metadata.json beside benchmark.py, which CUBE reads.

Every task of the full, hard and expert suites and the paper suite's five, with ids that name the
suite and the task (`full.book-flight`, `paper.book-flight`, `hard.policy-change`,
`expert.change-cancel`). An expert template keeps its split (`train` or `test`, CUBE's `split`
field: `subset_from_glob("split", "train")`); every other task is `test`. The gold path's length
varies with the seed (a hard task's branches): a task records the longest over seeds 0-9 (an expert
template over seeds 0-4, which meet every branch of its requests), and twice
that and ten more as the recommended step cap. The file is written from the scenarios themselves:

    .venv-cube/bin/python -m airlinecrm_cube.metadata     # rewrites task_metadata.json

and the package's tests check that it still says what the scenarios say.
"""
from __future__ import annotations

import json
from pathlib import Path

from cube.task import TaskMetadata

# The seeds whose gold paths a cap covers and the room beyond them, as the agent's own default caps
from agent.experiment.step_caps import STEP_CAP_EXTRA, STEP_CAP_FACTOR, gold_seeds

SUITE_ORDER = ("full", "paper", "hard", "expert")
METADATA_FILE = Path(__file__).with_name("task_metadata.json")


class AirlineCrmTaskMetadata(TaskMetadata):
    suite: str  # the scenario suite: full, paper, hard or expert (scenarios/suites.py)
    task: str  # the CRM's task type, e.g. TASK_BOOK_FLIGHT
    gold_steps: int  # the longest gold path over seeds 0-9, in actions
    customer: bool  # a customer is on the line (the hard suite)


def task_id(suite: str, task: str) -> str:
    """`hard.policy-change` for the hard suite's TASK_POLICY_CHANGE, `expert.change-cancel` for its
    EXPERT_CHANGE_CANCEL."""
    return f"{suite}.{task.removeprefix('TASK_').removeprefix('EXPERT_').lower().replace('_', '-')}"


def build(client, only=None) -> dict[str, AirlineCrmTaskMetadata]:
    """Every task's metadata (or that of the task names `only`), from the scenarios of the CRM
    `client` talks to (with its operator token)."""
    from scenarios.suites import SUITES, split_of

    tasks = {}
    for suite_name in SUITE_ORDER:
        suite = SUITES[suite_name]
        for task in (name for name in suite.task_names if only is None or name in only):
            longest = max(len(client.generate(task, seed, suite_name)[0]["gold_actions"])
                          for seed in gold_seeds(suite_name))
            words = task.removeprefix("TASK_").removeprefix("EXPERT_").replace("_", " ").lower()
            meta = AirlineCrmTaskMetadata(
                id=task_id(suite_name, task), abstract_description=f"{words.capitalize()}: {suite.description}.",
                split=split_of(suite, task) or "test",
                recommended_max_steps=STEP_CAP_FACTOR * longest + STEP_CAP_EXTRA, suite=suite_name, task=task,
                gold_steps=longest, customer=suite.hidden_details)
            tasks[meta.id] = meta
    return tasks


def as_json(tasks: dict[str, AirlineCrmTaskMetadata]) -> str:
    return json.dumps([meta.model_dump() for meta in tasks.values()], indent=1) + "\n"


def main() -> None:
    from agent.crm.client import ScenarioClient
    from scenarios.app import embedded_server

    with embedded_server() as server:
        client = ScenarioClient(server.url, operator_token=server.app.config.get("OPERATOR_TOKEN"))
        METADATA_FILE.write_text(as_json(build(client)))
    print(f"wrote {METADATA_FILE}")


if __name__ == "__main__":
    from airlinecrm_cube.metadata import main as write  # so that the file names the class by its module

    write()
