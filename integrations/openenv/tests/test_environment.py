"""The environment as trainers reach it: OpenEnv's own clients over the WebSocket (GenericEnvClient)
and HTTP (POST /reset, /step, /mcp; MCPToolClient), against one server and one CRM."""
from __future__ import annotations

import asyncio
import json
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from openenv import GenericEnvClient
from openenv.core import MCPToolClient

from airlinecrm_openenv import catalogue
from airlinecrm_openenv.oracle import call_tool, episode as oracle_episode
from scenarios.tasks.expert import TEMPLATES


pytestmark = pytest.mark.timeout(600)
CALL_TOOLS = ["search_airports", "search_flights", "get_quote", "book_flight", "get_booking", "cancel_booking",
              "update_passenger", "change_flights", "quote_flight_change", "message_customer", "search_bookings",
              "quote_fare_upgrade", "upgrade_fare", "transfer_to_supervisor"]


def post(url: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_the_oracle_gets_reward_1_on_every_hard_task_and_every_expert_template(openenv_url, the_crm):
    resets = [{"suite": suite, "task": row["name"], "seed": 0}
              for suite in ("hard", "expert") for row in catalogue.suites(the_crm.url)[suite]]
    assert len(resets) == 12 + len(TEMPLATES)

    def episode(reset):
        first, steps = oracle_episode(openenv_url, the_crm.url, the_crm.operator_token, **reset)
        return reset["task"], [step.reward for step in steps], steps[-1].done, steps[-1].observation["metadata"]

    with ThreadPoolExecutor(4) as pool:
        played = list(pool.map(episode, resets))
    failed = [(task, metadata) for task, rewards, done, metadata in played if rewards[-1] != 1.0 or not done]
    assert failed == []
    assert all(set(rewards[:-1]) <= {0.0} for _, rewards, _, _ in played)  # the reward comes on the last step
    assert all(metadata["success"] == 1 and metadata["task_progress"] > 0.5 for *_, metadata in played)


def test_doing_nothing_gets_0_and_a_step_after_it_says_the_episode_is_over(openenv_url):
    with GenericEnvClient(base_url=openenv_url).sync() as client:
        first = client.reset(task="TASK_POLICY_CANCEL", seed=1, suite="hard")
        assert (first.done, first.reward) == (False, None)
        assert first.observation["text"].startswith("Task: You are an agent of the airline's call center")
        assert "\nCUSTOMER: " in first.observation["text"]
        stopped = client.step(call_tool("stop", {}))
        assert (stopped.done, stopped.reward, stopped.observation["metadata"]["success"]) == (True, 0.0, 0)
        after = client.step(call_tool("get_booking", {"code": "ABC123"}))
        assert after.observation["error"] == {"error_type": "execution_error",
                                              "message": "the episode is over: call reset() first"}
        assert client.reset(task="TASK_POLICY_CANCEL", seed=1, suite="hard").done is False  # the session lives


def test_bad_actions_get_clear_errors_in_the_observation_and_the_session_goes_on(openenv_url):
    with GenericEnvClient(base_url=openenv_url).sync() as client:
        bad_reset = client.reset(task="TASK_NOPE", suite="hard")
        assert bad_reset.done is True
        assert bad_reset.observation["error"]["message"].startswith(
            "reset failed: GET /generate-random-scenario answered 400: Unknown task: TASK_NOPE. Choose one of")
        assert client.step(call_tool("get_booking", {"code": "X"})).observation["error"]["message"] == \
            "no episode is running: call reset() first"
        assert client.reset(split="validation", suite="expert").observation["error"]["message"] == \
            "reset failed: Unknown split: validation. Choose one of train, test"
        client.reset(task="TASK_POLICY_CANCEL", seed=1, suite="hard")
        unknown = client.step(call_tool("refund_everything", {}))
        assert unknown.observation["error"] == {
            "error_type": "tool_not_found",
            "message": f"there is no tool 'refund_everything'; the tools: {', '.join(CALL_TOOLS)}, stop"}
        wrong = client.step(call_tool("get_booking", {"booking": "X"}))
        assert wrong.observation["error"] == {"error_type": "invalid_args",
                                              "message": "get_booking takes no argument booking; its arguments: code"}
        refused = client.step(call_tool("get_booking", {"code": "ZZZZZZ"}))
        assert (refused.observation["status"], refused.observation["error"]["error_type"]) == (404, "execution_error")
        assert refused.done is False
        said = client.step(call_tool("message_customer", {"text": "Hello, how can I help you today?"}))
        assert said.observation["error"] is None and said.observation["customer_reply"]
        assert client.state()["step_count"] == 3  # the calls that reached a tool


def test_over_http_reset_and_step_answer_200_with_the_observation_and_a_malformed_action_422(openenv_url):
    status, reset = post(f"{openenv_url}/reset", {"seed": 2, "task": "TASK_POLICY_CHANGE", "suite": "hard"})
    assert status == 200 and reset["observation"]["text"].startswith("Task: ")
    assert reset["metadata"]["task"] == "TASK_POLICY_CHANGE"
    # HTTP /step is stateless in OpenEnv (a fresh environment per request): it has no episode
    status, step = post(f"{openenv_url}/step", {"action": call_tool("get_booking", {"code": "X"})})
    assert (status, step["observation"]["error"]["message"]) == (200, "no episode is running: call reset() first")
    status, malformed = post(f"{openenv_url}/step", {"action": {"type": "call_tool", "arguments": {}}})
    assert status == 422 and malformed["detail"][0]["loc"][-1] == "tool_name"


def test_mcp_tools_over_http_in_a_session_reset_over_the_websocket(openenv_url):
    async def session():
        async with MCPToolClient(base_url=openenv_url) as client:
            tools = [tool.name for tool in await client.list_tools()]
            await client.reset(task="TASK_POLICY_CANCEL", seed=4, suite="hard")
            answer = await client.call_tool("message_customer", text="Hello, how can I help you today?")
            state = await client.state()
            return tools, answer, state

    tools, answer, state = asyncio.run(session())
    assert tools == CALL_TOOLS + ["stop"]
    assert answer["tool_name"] == "message_customer" and answer["customer_reply"] and answer["done"] is False
    assert state.step_count == 1


def test_a_test_split_session_says_so_and_its_task_is_a_test_template(openenv_url, the_crm):
    test_tasks = {row["name"] for row in catalogue.suites(the_crm.url)["expert"] if row["split"] == "test"}
    with GenericEnvClient(base_url=openenv_url).sync() as client:
        metadata = client.reset(suite="expert", split="test", seed=5).observation["metadata"]
        assert metadata["split"] == "test" and metadata["task"] in test_tasks
        state = client.state()
        assert (state["split"], state["task"], state["scenario_id"]) == ("test", metadata["task"],
                                                                         metadata["scenario_id"])
        assert client.reset(suite="expert", split="train", seed=5).observation["metadata"]["split"] == "train"
        tools = [tool["name"] for tool in client.step({"type": "list_tools"}).observation["tools"]]
        knowledge = CALL_TOOLS.index("message_customer")  # the expert suite's knowledge base comes before the call's
        assert tools == CALL_TOOLS[:knowledge] + ["search_knowledge_base", "read_article"] + CALL_TOOLS[knowledge:] + [
            "stop"]
        assert client.reset(suite="hard", split="train").observation["error"]["message"] == \
            "reset failed: the hard suite has no train split (only the expert suite is split)"


def test_64_sessions_at_once_get_64_scenarios_and_the_rewards_one_at_a_time_gets(openenv_url, the_crm):
    hard = [row["name"] for row in catalogue.suites(the_crm.url)["hard"]]
    resets = [{"suite": "hard", "task": hard[number % len(hard)], "seed": number} for number in range(64)]

    def episode(reset):
        first, steps = oracle_episode(openenv_url, the_crm.url, the_crm.operator_token, **reset)
        return first.observation["metadata"]["scenario_id"], steps[-1].reward

    with ThreadPoolExecutor(64) as pool:
        together = list(pool.map(episode, resets))
    alone = [episode(reset) for reset in resets[:12]]
    assert len({scenario for scenario, _ in together}) == 64
    assert [reward for _, reward in together] == [1.0] * 64
    assert [reward for _, reward in alone] == [reward for _, reward in together[:12]]


def test_the_grpo_example_gives_the_oracle_s_samples_reward_1_and_the_idle_ones_0(openenv_url, the_crm):
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    from examples import grpo_openenv as example
    from tests.fake_openai import FakeOpenAIServer

    plans = example.group_plans(example.oracle_calls(openenv_url, the_crm, "TASK_POLICY_CANCEL", 3),
                                "TASK_POLICY_CANCEL", 4)
    with FakeOpenAIServer(example.scripted_model(plans)) as fake, ThreadPoolExecutor(4) as pool:
        model = example.OpenAI(base_url=fake.base_url, api_key="fake")
        rewards, advantages = example.group(openenv_url, model, "TASK_POLICY_CANCEL", 3, 4, pool)
    assert (rewards, advantages) == ([1.0, 0.0, 1.0, 0.0], [1.0, -1.0, 1.0, -1.0])
    assert [call["function"]["name"] for call in fake.requests[0]["tools"]][-2:] == ["transfer_to_supervisor", "stop"]
