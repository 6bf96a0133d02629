"""One CRM for the module's tasks (the benchmark's own embedded server), and tasks made through CUBE's
own path: a benchmark config, its task configs, TaskConfig.make with the benchmark's runtime context."""
from __future__ import annotations

import pytest

from airlinecrm_cube.benchmark import AirlineCrmBenchmarkConfig, ScenarioSeeds

@pytest.fixture(scope="module")
def benchmark():
    with AirlineCrmBenchmarkConfig().make() as running:
        yield running


@pytest.fixture
def make_task(benchmark):
    """make_task("full.find-flight", seed=3, channel="page", gold_step=True): a task, closed afterwards."""
    made = []

    def make(task_id: str, seed: int = 0, **fields):
        config = AirlineCrmBenchmarkConfig(seed_generator=ScenarioSeeds(seeds=[seed]), **fields)
        task_config = next(config.subset_from_list([task_id]).get_task_configs())
        made.append(task_config.make(runtime_context=benchmark._runtime_context))
        return made[-1]

    yield make
    for task in made:
        task.close()
