"""The browser mode through OpenEnv's own WebSocket client (GenericEnvClient): the CRM's page in the
server's one Chromium, the action grammar's text as the tool `act`, the observation modes as the
observation; the project's browser oracle plays the gold steps on the page."""
from __future__ import annotations

import base64
from concurrent.futures import ThreadPoolExecutor

import pytest
from openenv import GenericEnvClient

from agent.env.modes import modes
from airlinecrm_openenv.oracle import act, browser_episode, call_tool
from test_environment import post

pytestmark = pytest.mark.timeout(600)
# a change, a cancel and a call handed to a supervisor: the page's forms, SAY and TRANSFER
HARD_TASKS = ("TASK_POLICY_CHANGE", "TASK_POLICY_CANCEL", "TASK_ESCALATION")


def test_the_browser_oracle_gets_reward_1_on_hard_tasks_three_sessions_at_once(openenv_url, the_crm):
    def episode(task):
        first, steps = browser_episode(openenv_url, the_crm.url, the_crm.operator_token, task=task, seed=0,
                                       suite="hard")
        return first, steps

    with ThreadPoolExecutor(len(HARD_TASKS)) as pool:
        played = list(pool.map(episode, HARD_TASKS))
    for first, steps in played:
        assert first.observation["metadata"]["mode"] == "browser"
        assert [step.reward for step in steps] == [0.0] * (len(steps) - 1) + [1.0]
        assert steps[-1].done and steps[-1].observation["metadata"]["success"] == 1
        assert all(step.observation["error"] is None for step in steps)
    assert len({first.observation["metadata"]["scenario_id"] for first, _ in played}) == len(HARD_TASKS)
    spoken = [step.observation["customer_reply"] for _, steps in played for step in steps
              if step.observation["metadata"]["action"].startswith("SAY")]
    assert spoken and all(spoken)  # every SAY got the customer's reply


def test_doing_nothing_gets_0_and_bad_actions_get_clear_errors_in_the_observation(openenv_url):
    with GenericEnvClient(base_url=openenv_url).sync() as client:
        first = client.reset(mode="browser", task="TASK_POLICY_CANCEL", seed=1, suite="hard")
        assert (first.done, first.reward) == (False, None)
        text = first.observation["text"]
        assert text.startswith("Task: You are an agent of the airline's call center")
        assert "\nCUSTOMER: " in text and "<button id=" in text and "Search flights</button>" in text
        tools = client.step({"type": "list_tools"}).observation["tools"]
        assert [tool["name"] for tool in tools] == ["act"] and "SAY" in tools[0]["description"]

        unparsed = client.step(act("FLY to 3"))
        assert unparsed.done is False
        assert unparsed.observation["error"]["message"].startswith("Cannot use 'FLY to 3': Unknown action 'FLY'. Use")
        assert unparsed.observation["text"].startswith("ERROR: Cannot use 'FLY to 3'")  # the page is still shown
        missing = client.step(act("CLICK 999"))
        assert missing.done is False
        assert missing.observation["error"]["message"] == "CLICK 999 failed: There is no element with id 999 on the page."
        assert client.step(call_tool("get_booking", {"code": "X"})).observation["error"] == {
            "error_type": "tool_not_found",
            "message": "there is no tool 'get_booking' in the browser mode: call act with the action's text, "
                       "e.g. {\"action\": \"CLICK 6\"}"}
        assert client.step(call_tool("act", {"text": "CLICK 6"})).observation["error"] == {
            "error_type": "invalid_args", "message": "act takes one argument, action: the action's text (a string), "
                                                     "e.g. CLICK 6"}

        stopped = client.step(act("STOP"))
        assert (stopped.done, stopped.reward, stopped.observation["metadata"]["success"]) == (True, 0.0, 0)
        after = client.step(act("CLICK 3"))
        assert after.observation["error"] == {"error_type": "execution_error",
                                              "message": "the episode is over: call reset() first"}
        assert client.state()["step_count"] == 3  # the actions handed to the page: unparsed, missing, STOP

        known = ", ".join(modes())
        assert client.reset(mode="browser", observations="elements,smell").observation["error"]["message"] == \
            f"reset failed: unknown observation mode smell; known: {known}"
        assert client.reset(mode="desktop").observation["error"]["message"] == \
            "reset failed: Unknown mode: desktop. Choose one of tool, browser"
        again = client.reset(mode="browser", task="TASK_POLICY_CANCEL", seed=1, suite="hard")
        assert again.done is False and again.observation["error"] is None  # the session lives
        tool_mode = client.reset(task="TASK_POLICY_CANCEL", seed=1, suite="hard")
        assert tool_mode.observation["metadata"]["mode"] == "tool"
        assert "message_customer" in [tool["name"] for tool in client.step({"type": "list_tools"}).observation["tools"]]


def test_an_http_reset_in_browser_mode_answers_200_with_the_page(openenv_url):
    status, reset = post(f"{openenv_url}/reset", {"mode": "browser", "task": "TASK_POLICY_CHANGE", "seed": 2})
    assert status == 200 and reset["observation"]["text"].startswith("Task: ")
    assert "<link id=" in reset["observation"]["text"] and reset["metadata"]["mode"] == "browser"


def test_the_observation_is_the_modes_asked_for_images_as_base64_png(openenv_url):
    with GenericEnvClient(base_url=openenv_url).sync() as client:
        first = client.reset(mode="browser", observations=["axtree", "som"], task="TASK_POLICY_CANCEL", seed=2,
                             suite="hard")
        observation = first.observation
        assert set(observation["images"]) == {"som"}
        assert base64.b64decode(observation["images"]["som"]).startswith(b"\x89PNG\r\n\x1a\n")
        assert "<button id=" not in observation["text"]  # the accessibility tree, not the element list
        assert "Search flights" in observation["text"] and "\nCUSTOMER: " in observation["text"]
        said = client.step(act('SAY "Hello, how can I help you today?"'))
        assert said.observation["customer_reply"] and said.observation["images"]["som"]
