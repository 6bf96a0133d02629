"""CUBE's debug protocol (`cube test airlinecrm-cube`): a task of each suite, the hard one with its
call in CUBE's chat, solved by the debug agent, which takes the scenario's gold actions one at a time
through the debug action gold_step (the project's oracle, reading the page as every agent does) and
stops when none is left. Every debug task's gold path fits CUBE's default cap of 20 steps.

    .venv-cube/bin/python -m airlinecrm_cube.debug     # the debug tasks, with a JSON report
"""
from __future__ import annotations

from cube.core import Action, ActionSchema, Observation

from .benchmark import AirlineCrmBenchmarkConfig

DEBUG_TASKS = ("full.find-flight", "paper.find-booking", "hard.policy-cancel")
DONE = "Every gold step is done."  # gold_step's answer once the path is taken (tools.GoldStepTool)


class DebugAgent:
    """gold_step until the gold path is done, then final_step."""

    def __init__(self, task_id: str) -> None:
        if task_id not in DEBUG_TASKS:
            raise ValueError(f"no debug agent for {task_id!r}; the debug tasks are {', '.join(DEBUG_TASKS)}")
        self.task_id = task_id

    def __call__(self, obs: Observation, action_set: list[ActionSchema]) -> Action:
        if DONE in obs.to_markdown():
            return Action(name="final_step", arguments={})
        return Action(name="gold_step", arguments={})


def get_debug_benchmark() -> AirlineCrmBenchmarkConfig:
    return AirlineCrmBenchmarkConfig(gold_step=True).subset_from_list(list(DEBUG_TASKS))


def make_debug_agent(task_id: str) -> DebugAgent:
    return DebugAgent(task_id)


if __name__ == "__main__":
    import sys

    from cube.testing import run_debug_suite

    reports = run_debug_suite("airlinecrm-cube", sys.modules[__name__])
    sys.exit(1 if any(r["error"] or not r["done"] or r["reward"] < 1 for r in reports) else 0)
