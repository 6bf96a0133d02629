"""AirlineCRM as a CUBE benchmark: the configuration CUBE discovers (entry point `cube.benchmarks`:
airlinecrm-cube) and the runtime that serves the CRM to its tasks.

    from airlinecrm_cube.benchmark import AirlineCrmBenchmarkConfig, ScenarioSeeds

    config = AirlineCrmBenchmarkConfig(seed_generator=ScenarioSeeds(seeds=[0, 1, 2]))
    with config.subset_from_glob("suite", "hard").make() as benchmark:
        for task_config in config.subset_from_glob("suite", "hard").get_task_configs():
            task = task_config.make(benchmark._runtime_context)
            ...

The CRM is the one at `server_url` (else AIRLINECRM_URL), with `operator_token` (else
CRM_OPERATOR_TOKEN) if it keeps gold steps for its operator; without one, the benchmark starts the
CRM in its own process on a temporary SQLite file and stops it (removing the file) when closed.
Every task's reset makes its own scenario, so tasks run side by side safely.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Generator
from typing import ClassVar

from cube.benchmark import Benchmark, BenchmarkConfig, BenchmarkMetadata
from cube.seed import AbstractSeedGenerator
from cube.task import TaskConfig, TaskMetadata

from agent.crm.client import URL_VARIABLE, ScenarioClient
from agent.env.actions import SAY_CHANNEL
from crm_app.version import VERSION

from .metadata import METADATA_FILE
from .task import AirlineCrmTaskConfig, Channel


class ScenarioSeeds(AbstractSeedGenerator):
    """The same scenario seeds for every task (seed N: the scenario `python -m agent run` plays as N)."""

    seeds: list[int]

    def __call__(self, task_metadata: TaskMetadata) -> list[int]:
        return list(self.seeds)


class AirlineCrmBenchmark(Benchmark):
    """Starts (or finds) the CRM; its address and operator token go to every task."""

    _server: contextlib.ExitStack | None = None

    def _setup(self) -> None:
        url = self.config.server_url or os.environ.get(URL_VARIABLE)
        if url:
            token = self.config.operator_token
            ScenarioClient(url, operator_token=token).check()  # a clear error now, not in every task
        else:
            url, token = self._start_server()
        self._runtime_context.update(crm_url=url.rstrip("/"), operator_token=token)

    def _start_server(self) -> tuple[str, str | None]:
        from scenarios.app import embedded_server

        self._server = contextlib.ExitStack()
        server = self._server.enter_context(embedded_server())
        return server.url, server.app.config.get("OPERATOR_TOKEN")

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None


class AirlineCrmBenchmarkConfig(BenchmarkConfig):
    benchmark_metadata: ClassVar[BenchmarkMetadata] = BenchmarkMetadata(
        name="airlinecrm-cube",
        version=VERSION,
        description="AirlineCRM, a mock airline call-center CRM: flight search, bookings, cancellations and "
                    "passenger changes on its web page (the full suite, and the HeaP/SteP papers' five tasks), "
                    "and calls with a simulated customer under an airline policy (the hard suite; the expert "
                    "suite's calls of several requests, in train and test splits). "
                    "Scored by the CRM's own /evaluate against gold action sequences.",
        requirements={"chromium": True},
        num_tasks=len(BenchmarkConfig.task_metadata_from_json(METADATA_FILE)),
        tags=["web", "crm", "customer-service", "conversation", "policy"],
        named_subsets={"full": ("suite", "full"), "paper": ("suite", "paper"), "hard": ("suite", "hard"),
                       "expert": ("suite", "expert")},
    )
    # task_metadata: task_metadata.json beside this file (metadata.py writes it)
    task_config_class: ClassVar[type[TaskConfig]] = AirlineCrmTaskConfig
    benchmark_class: ClassVar[type[Benchmark]] = AirlineCrmBenchmark

    server_url: str | None = None  # a running CRM (else AIRLINECRM_URL; else one is started)
    operator_token: str | None = None  # its operator token (else CRM_OPERATOR_TOKEN)
    channel: Channel = SAY_CHANNEL  # a hard task's call: in CUBE's chat ("say") or on the page ("page")
    ui_variant: int | str | None = None  # the CRM's look for every task: a number, "random" or None (plain)
    gold_step: bool = False  # offer the debug action gold_step (debug.py)

    def get_task_configs(self) -> Generator[TaskConfig, None, None]:
        for config in super().get_task_configs():
            yield config.model_copy(update={"channel": self.channel, "ui_variant": self.ui_variant,
                                            "gold_step": self.gold_step})
