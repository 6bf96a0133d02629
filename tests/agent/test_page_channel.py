"""The hard suite's page channel (`--channel page`): the call reaches the agent through the page's
Call panel alone. The oracle solves every branch of the twelve hard tasks by typing its gold lines
into the panel, transferring on the Transfer to supervisor screen and ending the call with End
call; the verdicts and transcripts are those of the same lines said with SAY."""
import json

import pytest
import requests

from agent.__main__ import main
from crm_app.ui_variants.wording import words
from agent.env.actions import PAGE_CHANNEL, SAY_CHANNEL
from agent.env.browser_env import CrmEnv
from agent.experiment.protocols import PROTOCOLS
from agent.policies import make_policy
from agent.policies.prompting import conversation_text, task_text
from scenarios.conversation_scoring import CALL_VERDICTS
from scenarios.tasks import HARD_TASKS
from tests.agent.command_line import refusal
from tests.agent.branches import branch_seeds
from tests.conftest import OPERATOR_TOKEN

# /evaluate's verdict on a call (under policy is success with no violation); held_rule where the task has one
VERDICT = ("success", "state_ok", *CALL_VERDICTS, "transfer_ok", "judgment", "reasons")


def play(env, method, task, seed, channel):
    """The method's episode of (task, seed) through `env`: (its last info, the actions it took)."""
    obs, info = env.reset(task=task, seed=seed)
    policy = make_policy(method, channel=channel)
    policy.reset(info["scenario"])
    actions = []
    for _ in range(env.max_steps):
        actions.append(policy.act(obs)[1])
        obs, _, terminated, truncated, info = env.step(actions[-1])
        assert info["error"] is None, (actions[-1], info["error"])
        if terminated or truncated:
            return info, actions
    pytest.fail("the episode did not end")


def transcript(server: str, scenario_id: str) -> list[dict]:
    answer = requests.get(f"{server}/api/customer/messages", headers={"X-Scenario-Id": scenario_id}, timeout=10)
    return answer.json()["messages"]


@pytest.mark.parametrize("task", HARD_TASKS)
def test_the_oracle_solves_every_branch_through_say_and_through_the_call_panel_with_the_same_verdicts(
        env_of, live_server, task):
    """Every branch played twice, its gold lines said with SAY and typed into the panel: both solve
    it, with the same verdicts and the same transcript."""
    for seed in branch_seeds(live_server, task):
        verdicts, transcripts = {}, {}
        for channel, env in ((SAY_CHANNEL, env_of("hard", 0)), (PAGE_CHANNEL, env_of("hard", 0, PAGE_CHANNEL))):
            info, actions = play(env, "oracle", task, seed, channel)
            metrics = info["metrics"]
            assert (metrics["success"], metrics["said_ok"], metrics["verified_first"], metrics["policy_violations"],
                    metrics["task_progress"]) == (1, True, True, 0, 1.0), (channel, seed, metrics["state_check"])
            verdicts[channel] = {key: metrics.get(key) for key in VERDICT}
            transcripts[channel] = transcript(live_server, env.scenario["id"])
        assert not any(action.startswith(("SAY", "TRANSFER", "STOP")) for action in actions), actions
        assert env.observation.call_state in ("ended", "transferred")
        assert verdicts[PAGE_CHANNEL] == verdicts[SAY_CHANNEL], seed
        assert transcripts[PAGE_CHANNEL] == transcripts[SAY_CHANNEL], seed
        assert [line["role"] for line in transcripts[PAGE_CHANNEL]][:2] == ["customer", "agent"]


@pytest.fixture(scope="module")
def screenshot_env(live_server, browser):
    """The page channel seen as a computer-use agent sees it: screenshots only (input by position takes
    several actions per gold step: a booking's take more than the default cap)."""
    with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, observations=("screenshot",), max_steps=150,
                **PROTOCOLS["hard"].env_options(PAGE_CHANNEL)) as env:
        yield env


def shortest_branch(server: str, task: str) -> int:
    """The branch seed whose gold path is shortest (input by position takes several actions a step)."""
    operator = {"X-Operator-Token": OPERATOR_TOKEN}

    def length(seed):
        made = requests.get(f"{server}/generate-random-scenario", params={"suite": "hard", "task": task, "seed": seed},
                            headers=operator, timeout=10).json()
        gold = requests.get(f"{server}/evaluate", params={"scenario": made["id"]}, headers=operator,
                            timeout=10).json()["gold_actions"]
        return sum(1 if step["action"] == "click" else 4 for step in gold), seed  # a typed step: 4 actions
    return min(map(length, branch_seeds(server, task)))[1]


def test_the_coordinate_oracle_solves_each_hard_task_through_the_call_panel_from_screenshots(screenshot_env,
                                                                                              live_server):
    for task in HARD_TASKS:
        seed = shortest_branch(live_server, task)
        info, actions = play(screenshot_env, "oracle-coordinates", task, seed, PAGE_CHANNEL)
        assert screenshot_env.observation.modes["screenshot"].startswith(b"\x89PNG")
        metrics = info["metrics"]
        assert (task, metrics["success"], metrics["said_ok"], metrics["verified_first"], metrics["policy_violations"]) \
            == (task, 1, True, True, 0), metrics["state_check"]
        assert all(action.split()[0] in ("CLICK_AT", "TYPE_TEXT", "PRESS") for action in actions), actions


def test_an_agent_that_stops_at_once_scores_nothing_and_the_call_stays_open(env_of):
    env = env_of("hard", 0, PAGE_CHANNEL)
    for task in HARD_TASKS:
        env.reset(task=task, seed=0)
        _, reward, terminated, _, info = env.step("STOP")
        assert (task, reward, terminated, info["metrics"]["success"]) == (task, 0.0, True, 0)
        assert env.observation.call_state == "open"


def test_say_and_transfer_are_refused_and_the_customer_is_read_in_the_panel(env_of, live_server):
    env = env_of("hard", 0, PAGE_CHANNEL)
    obs, info = env.reset(task="TASK_POLICY_CANCEL", seed=2)
    opening = info["scenario"]["conversation"][0]["text"]
    assert not obs.text.startswith("CUSTOMER:") and obs.customer is None
    assert f"Customer: {opening}" in obs.text and "Message to the customer" in obs.text
    for text, word in (('SAY "Hello, how can I help?"', "SAY"), ('TRANSFER "Wants a refund."', "TRANSFER"),
                       ('send_msg_to_user("Hello")', "send_msg_to_user")):
        obs, _, terminated, _, info = env.step(text)
        assert info["error"].startswith(f"Cannot use {text!r}: Unknown action {word!r}: the customer is on the "
                                        "page's call panel here. Speak to them by typing into its message box")
        assert obs.text.startswith(f"ERROR: {info['error']}") and not terminated and "customer" not in info
    assert transcript(live_server, env.scenario["id"]) == [{"role": "customer", "text": opening}]
    assert env.step("STOP")[2]


def test_every_observation_mode_shows_the_call_panel(live_server, browser):
    modes = ("elements", "axtree", "html", "screenshot", "som")
    with CrmEnv(live_server, browser=browser, observations=modes,
                **PROTOCOLS["hard"].env_options(PAGE_CHANNEL)) as env:
        obs, info = env.reset(task="TASK_POLICY_CANCEL", seed=2)
    opening = info["scenario"]["conversation"][0]["text"]
    for mode in ("elements", "axtree", "html"):
        assert opening in obs.modes[mode] and "Message to the customer" in obs.modes[mode], mode
    panel = [e for e in obs.elements if e["name"] in ("Message to the customer", "Send", "End call")]
    assert len(panel) == 3 and all(0 <= e["box"]["y"] < obs.viewport["height"] and
                                   e["box"]["x"] + e["box"]["width"] <= obs.viewport["width"] for e in panel)
    assert all(obs.modes[mode].startswith(b"\x89PNG") for mode in ("screenshot", "som"))


def test_a_page_channel_run_records_its_channel_and_a_say_run_does_not_resume_into_it(tmp_path, live_server, capsys):
    out = tmp_path / "run"
    command = ["run", "--method", "oracle", "--protocol", "hard", "--tasks", "TASK_POLICY_CANCEL", "--episodes", "1",
               "--out", str(out), "--quiet", "--no-report", "--server", live_server, "--operator-token", OPERATOR_TOKEN]
    assert main([*command, "--channel", "page"]) == 0
    trajectory = json.loads((out / "oracle" / "TASK_POLICY_CANCEL" / "seed0-trial0.json").read_text())
    assert trajectory["settings"]["channel"] == "page" and trajectory["metrics"]["success"] == 1
    assert json.loads((out / "run.json").read_text())["settings"]["oracle"]["channel"] == "page"
    assert trajectory["steps"][-1]["action"].startswith("CLICK ") and "customer" not in trajectory["steps"][0]
    capsys.readouterr()
    assert main(command) == 2
    assert "oracle/TASK_POLICY_CANCEL/seed0-trial0.json has channel 'page' (this run: 'say')" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--protocol", "full", "--channel", "page"], "--channel says how the customer on the line reaches the agent; "
                                                  "--protocol full has no customer on the line (the protocols with "
                                                  "one: hard, expert)"),
    (["--protocol", "hard", "--channel", "page", "--method", "toolcall", "--model", "m"],
     "--channel page puts the call on the page; toolcall works without one (it speaks to the customer with its tools)"),
])
def test_a_channel_where_it_cannot_apply_is_refused(argv, message, tmp_path, capsys):
    code, err = refusal(main, ["run", "--method", "oracle", *argv, "--out", str(tmp_path)], capsys)
    assert code == 2 and err.strip().endswith(f"error: {message}")


@pytest.mark.parametrize("method", ["flat", "heap", "step", "synapse", "webwise"])
def test_on_the_page_channel_the_task_holds_the_briefing_and_the_panel_not_the_opening_line_nor_say(method):
    policy = make_policy(method, model="fake-model", base_url="http://127.0.0.1:9/v1", protocol="hard", on_call=True,
                         channel=PAGE_CHANNEL)
    policy.reset({"id": "x", "instruction": "The briefing.", "conversation": [{"role": "CUS", "text": "Hi, it's Ann."}]})
    told = task_text(policy.scenario) + conversation_text(policy.scenario)
    assert told.startswith("The briefing.\n\nYou are on a call") and "the page's Call panel" in told
    assert "THE AIRLINE'S POLICY:\n# Changes and cancellations" in told
    assert not any(word in told for word in ("Hi, it's Ann.", "SAY", "TRANSFER", "say(", "CUSTOMER:"))
    assert not any("SAY" in prompt for prompt in policy.system_prompts().values())


@pytest.mark.parametrize("method", ["flat", "webwise"])
def test_on_the_page_channel_the_task_names_the_panel_by_the_labels_of_the_scenarios_ui_variant(method):
    policy = make_policy(method, model="fake-model", base_url="http://127.0.0.1:9/v1", protocol="hard", on_call=True,
                         channel=PAGE_CHANNEL)
    for variant in (0, 3):
        policy.reset({"id": "x", "instruction": "The briefing.", "conversation": [], "ui_variant": variant})
        said = words(variant)
        told = task_text(policy.scenario)
        assert all(f" {said[key]} " in told for key in ("call-message", "call-send", "call-end", "nav-transfer"))
        assert f"the page's {said['call']} panel" in told
    assert not any(label in told for label in ("End call", "Transfer to supervisor", "Message to the customer"))
