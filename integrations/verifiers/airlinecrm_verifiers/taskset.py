"""AirlineCRM as a verifiers (0.4.0, `verifiers.v1`) taskset with its own harness.

    vf-eval airlinecrm-verifiers --env.taskset.openenv-url http://127.0.0.1:8000 \
        --env.taskset.crm-url http://127.0.0.1:5000 [--env.taskset.suite expert --env.taskset.split test] \
        [--env.taskset.seeds 4] -m MODEL --client.base-url URL -n 3 --no-push

The tasks are the suite's (GET /api/suites of the CRM behind the OpenEnv server; the expert
suite's train or test split), each for `seeds` seeds from `first-seed` on: one OpenEnv reset each.
The harness plays an episode in process (the interception contract: every model call goes to
vf-eval's endpoint, so the trace records them): the model's tool calls through the OpenEnv
server's WebSocket session (episode.py). The reward is the episode's /evaluate success.
"""
from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from openai import AsyncOpenAI
from pydantic import Field

import verifiers.v1 as vf

from .episode import Outcome, play

SYSTEM_PROMPT = (Path(__file__).parent / "prompts" / "system.txt").read_text().strip()
OUTCOME_KEY = "airlinecrm"
SPLITS = ("train", "test")


class AirlineCrmConfig(vf.TasksetConfig):
    openenv_url: str = Field(default_factory=lambda: os.environ.get("AIRLINECRM_OPENENV_URL", "http://127.0.0.1:8000"))
    """The AirlineCRM OpenEnv server (`python -m airlinecrm_openenv.server`)."""
    crm_url: str = Field(default_factory=lambda: os.environ.get("AIRLINECRM_URL", "http://127.0.0.1:5000"))
    """The CRM behind it, whose GET /api/suites lists the tasks."""
    suite: str = "hard"
    split: str | None = None
    """train or test: the expert suite's split; None for all of the suite's tasks."""
    first_seed: int = 0
    seeds: int = Field(1, ge=1)
    """Seeds per task: first_seed, first_seed + 1, ..."""


class AirlineCrmData(vf.TaskData):
    openenv_url: str
    reset: dict[str, Any]
    """OpenEnv reset arguments: suite, task, seed (and split)."""


class AirlineCrmTask(vf.Task[AirlineCrmData]):
    @vf.reward
    async def success(self, trace: vf.Trace) -> float:
        """/evaluate's success on the episode's last step (0 for an episode that never ended)."""
        return float(trace.info.get(OUTCOME_KEY, {}).get("reward", 0.0))

    @vf.metric
    async def task_progress(self, trace: vf.Trace) -> float:
        return float(trace.info.get(OUTCOME_KEY, {}).get("metadata", {}).get("task_progress") or 0.0)


def suite_tasks(crm_url: str, suite: str, split: str | None) -> list[str]:
    with urllib.request.urlopen(f"{crm_url.rstrip('/')}/api/suites", timeout=30) as answer:
        suites = {row["name"]: row["tasks"] for row in json.load(answer)["suites"]}
    if suite not in suites:
        raise ValueError(f"unknown suite {suite!r}: the CRM has {', '.join(suites)}")
    if split is not None and split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: choose one of {', '.join(SPLITS)}")
    names = [task["name"] for task in suites[suite] if split is None or task["split"] == split]
    if not names:
        raise ValueError(f"the {suite} suite has no {split} split (only the expert suite is split)")
    return names


class AirlineCrmTaskset(vf.Taskset[AirlineCrmTask, AirlineCrmConfig]):
    def load(self) -> Iterator[AirlineCrmTask]:
        config = self.config
        split = {"split": config.split} if config.split else {}
        for task in suite_tasks(config.crm_url, config.suite, config.split):
            for seed in range(config.first_seed, config.first_seed + config.seeds):
                # The model's first user turn is the reset's briefing; the prompt names the scenario.
                yield AirlineCrmTask(AirlineCrmData(
                    name=f"{config.suite}/{task}#{seed}", prompt=f"AirlineCRM {config.suite} task {task}, seed {seed}",
                    system_prompt=SYSTEM_PROMPT, openenv_url=config.openenv_url,
                    reset={"suite": config.suite, "task": task, "seed": seed, **split}), config.task)


class AirlineCrmHarness(vf.Harness[vf.HarnessConfig]):
    APPENDS_SYSTEM_PROMPT = True
    EXECUTES_CODE = False  # the model's calls are the environment's tools, nothing runs locally
    NEEDS_CONTAINER = False

    async def launch(self, ctx, trace, runtime, endpoint, secret, mcp_urls, data, tool_interception_url=None):
        model = AsyncOpenAI(base_url=endpoint, api_key=secret, max_retries=0)
        try:
            outcome: Outcome = await play(model, ctx.model, data.openenv_url, data.reset,
                                          data.system_prompt or SYSTEM_PROMPT)
        finally:
            await model.close()
        trace.info[OUTCOME_KEY] = {"reward": outcome.reward, "done": outcome.done, "steps": outcome.steps,
                                   "rejected_calls": outcome.rejected_calls, "metadata": outcome.metadata}
        return vf.ProgramResult(exit_code=0, stdout="", stderr="")


class AirlineCrmEnvConfig(vf.SingleAgentEnvConfig):
    # The harness runs in vf-eval's own process and executes nothing in its runtime, so the runtime
    # is a local one by default (verifiers' default is a remote sandbox, with a tunnel to the model).
    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())


class AirlineCrmEnv(vf.Env[AirlineCrmEnvConfig]):
    """verifiers' single-agent env with the local runtime by default."""

    async def run(self, task, agents) -> None:
        await agents.agent.run(task)
