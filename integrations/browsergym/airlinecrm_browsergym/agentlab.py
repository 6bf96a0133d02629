"""AirlineCRM as an AgentLab benchmark (needs browsergym-experiments, which AgentLab installs):

    from agentlab.agents.generic_agent import AGENT_4o_MINI
    from agentlab.experiments.study import Study
    from airlinecrm_browsergym.agentlab import airlinecrm_benchmark

    Study([AGENT_4o_MINI], airlinecrm_benchmark(seeds=range(20))).run(n_jobs=4)

AgentLab runs each episode from pickled EnvArgs, in worker processes; the EnvArgs here are of a
class of this package, so unpickling them imports it, and that registers the tasks in the worker.
"""
from __future__ import annotations

from dataclasses import dataclass

from bgym import Benchmark, EnvArgs, HighLevelActionSetArgs

from . import TASK_IDS, TASK_SPLITS


@dataclass
class AirlineCrmEnvArgs(EnvArgs):
    """EnvArgs of an AirlineCRM task (see the module's docstring for why it is its own class)."""


def airlinecrm_benchmark(tasks=None, seeds=range(20), max_steps: int = 30, headless: bool = True,
                         action_subsets: tuple[str, ...] = ("chat", "bid"), split: str | None = None) -> Benchmark:
    """Every task (or the `tasks` ids, e.g. ["airlinecrm.book-flight"]; with `split`, the expert
    suite's templates of that split, train or test) on every seed: BrowserGym seed N is the CRM's
    scenario seed N. Agents act by bid and answer in the chat by default; add "coord" to
    `action_subsets` for agents that act by position."""
    if split is not None and split not in set(TASK_SPLITS.values()):
        raise ValueError(f"unknown split {split}; the expert suite's: {', '.join(sorted(set(TASK_SPLITS.values())))}")
    names = list(tasks or (TASK_IDS if split is None else [task for task, of in TASK_SPLITS.items() if of == split]))
    unknown = sorted(set(names) - set(TASK_IDS))
    if unknown:
        raise ValueError(f"unknown AirlineCRM task {', '.join(unknown)}; known: {', '.join(TASK_IDS)}")
    outside = [name for name in names if split is not None and TASK_SPLITS.get(name) != split]
    if outside:
        raise ValueError(f"{', '.join(outside)} is not in the {split} split of the expert suite")
    return Benchmark(
        name="airlinecrm",
        high_level_action_set_args=HighLevelActionSetArgs(subsets=tuple(action_subsets)),
        is_multi_tab=False,
        supports_parallel_seeds=True,
        backends=[],
        env_args_list=[AirlineCrmEnvArgs(task_name=name, task_seed=seed, max_steps=max_steps, headless=headless)
                       for name in names for seed in seeds],
    )
