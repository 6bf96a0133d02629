"""verifiers' own `vf-eval` runs the AirlineCRM environment end to end: the taskset package
(airlinecrm_verifiers), the OpenEnv server's sessions, and the project's fake OpenAI-compatible
model (tests/fake_openai.py) reached through vf-eval's endpoint, scripted to play the oracle's tool
calls (reward 1.0 on every task) or to do nothing (reward 0)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.timeout(600)
VF_EVAL = Path(sys.executable).parent / "vf-eval"


def scripted_model(plans: dict[str, list[dict]], otherwise: list[dict] = ()):
    """At its k-th turn on a scenario (known by its briefing, the first user turn), the fake model makes
    the plan's k-th tool call (`otherwise`'s on a scenario without a plan); once the plan is played it
    answers text only."""
    def reply(request: dict):
        briefing = next(message["content"] for message in request["messages"] if message["role"] == "user")
        plan = plans.get(briefing, otherwise)
        turn = sum(message["role"] == "assistant" for message in request["messages"])
        return {"tool_calls": [plan[turn]]} if turn < len(plan) else "I have nothing more to do."
    return reply


def vf_eval(openenv_side: dict, fake: FakeOpenAIServer, output: Path, tasks: int, *options: str) -> tuple[list[float], list[dict]]:
    """Runs vf-eval on the first `tasks` hard tasks: the rewards it reports (its log's "rollout done"
    lines) and the traces it wrote."""
    command = [str(VF_EVAL), "airlinecrm-verifiers", "--env.taskset.openenv-url", openenv_side["openenv_url"],
               "--env.taskset.crm-url", openenv_side["crm_url"], "-m", "fake-model", "--client.base-url", fake.base_url,
               "-n", str(tasks), "--no-push", "--no-rich", "-o", str(output), "--run.name", "run", *options]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=500, cwd=output)
    assert finished.returncode == 0, finished.stderr[-4000:]
    reported = [float(found) for found in re.findall(r"rollout done: .* reward=([0-9.]+) ", finished.stderr)]
    episodes = [json.loads(line) for line in (output / "run" / "traces.jsonl").read_text().splitlines()]
    return reported, [trace for episode in episodes for trace in episode["traces"]]


def test_vf_eval_gives_the_oracle_s_tool_calls_reward_1_on_each_task_in_groups_of_2(openenv_side, tmp_path):
    scenarios = openenv_side["scenarios"]
    plans = {scenario["briefing"]: scenario["gold_calls"] for scenario in scenarios}
    with FakeOpenAIServer(scripted_model(plans)) as fake:
        reported, traces = vf_eval(openenv_side, fake, tmp_path, len(scenarios), "-r", "2")
    assert reported == [1.0] * 2 * len(scenarios)
    assert sorted(trace["task"]["data"]["name"] for trace in traces) == \
        sorted(f"hard/{scenario['reset']['task']}#0" for scenario in scenarios for _ in range(2))
    assert [trace["rewards"]["success"]["score"] for trace in traces] == [1.0] * 2 * len(scenarios)
    assert all(trace["info"]["airlinecrm"]["metadata"]["success"] == 1 for trace in traces)
    assert len({trace["info"]["airlinecrm"]["metadata"]["episode_id"] for trace in traces}) == 6  # a session each
    played = sum(len(scenario["gold_calls"]) for scenario in scenarios)
    assert len(fake.requests) == 2 * played  # one model turn per gold call: the episode ends on the last one
    assert sum(trace["info"]["airlinecrm"]["steps"] for trace in traces) == 2 * played


def test_vf_eval_gives_a_model_that_does_nothing_reward_0(openenv_side, tmp_path):
    with FakeOpenAIServer(scripted_model({})) as fake:
        reported, traces = vf_eval(openenv_side, fake, tmp_path, 2)
    assert reported == [0.0, 0.0]
    assert [trace["rewards"]["success"]["score"] for trace in traces] == [0.0, 0.0]
    assert [trace["info"]["airlinecrm"]["metadata"]["success"] for trace in traces] == [0, 0]
    assert len(fake.requests) == 2
    tools = [tool["function"]["name"] for tool in fake.requests[0]["tools"]]
    assert {"get_booking", "message_customer", "stop"} <= set(tools)


def test_calls_naming_no_tool_or_without_a_json_object_are_refused_and_vf_eval_s_turn_limit_ends_the_episode(
        openenv_side, tmp_path):
    bad_calls = [{"name": "refund_everything", "arguments": {}}, {"name": "get_booking", "arguments": "{code: X"},
                 {"name": "get_booking", "arguments": "[1, 2]"}] * 10
    with FakeOpenAIServer(scripted_model({}, otherwise=bad_calls)) as fake:
        reported, [trace] = vf_eval(openenv_side, fake, tmp_path, 1, "--env.agent.max-turns", "4")
    assert reported == [0.0]
    assert len(fake.requests) == 4  # the 5th model call is refused by vf-eval: the episode is stopped
    outcome = trace["info"]["airlinecrm"]
    assert (outcome["rejected_calls"], outcome["steps"], outcome["done"]) == (4, 0, True)
    assert outcome["metadata"]["step_count"] == 1  # the stop: no bad call reached the environment
    answers = [message["content"] for message in fake.requests[-1]["messages"] if message["role"] == "tool"]
    assert answers[0].startswith("Error: there is no tool 'refund_everything'; the tools: book_flight, ")
    assert answers[1].startswith("Error: the arguments are not JSON (")
    assert answers[2] == "Error: the arguments must be a JSON object, not list"
