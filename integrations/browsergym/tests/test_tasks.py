"""The AirlineCRM tasks inside BrowserGym itself (its own Playwright, driving Debian's Chromium):
every task is registered, seeds are scenario seeds, the gold steps earn reward 1, doing nothing
earns 0, and BrowserGym's own actions (fill, click by bid) are recorded and scored by the CRM; in a
hard-suite task the chat is the line to the customer."""
import os
import re
import subprocess
from pathlib import Path

import gymnasium as gym
import pytest
from browsergym.utils.obs import flatten_axtree_to_str

import airlinecrm_browsergym
from scenarios.tasks.expert import TEMPLATES
from agent.crm.client import ScenarioClient
from agent.env.browser import DISABLE_FEATURES, UNSHOWN_FEATURES, chromium_executable
from airlinecrm_browsergym.server import crm_server
from scenarios.app import embedded_server

EXPECTED_IDS = ["airlinecrm.find-flight", "airlinecrm.book-flight", "airlinecrm.find-booking",
                "airlinecrm.cancel-flight", "airlinecrm.update-passenger-details", "airlinecrm.modify-flight"]
HARD_IDS = ["airlinecrm.policy-change", "airlinecrm.policy-cancel", "airlinecrm.fare-question",
            "airlinecrm.find-by-name", "airlinecrm.two-requests", "airlinecrm.corrected-request",
            "airlinecrm.book-constrained", "airlinecrm.pushback", "airlinecrm.false-claim", "airlinecrm.escalation",
            "airlinecrm.disrupted-flight", "airlinecrm.upgrade-to-change"]


@pytest.fixture
def make_env():
    """gym.make for the test, every environment closed afterwards (which tears its task down)."""
    made = []

    def make(task_id, **kwargs):
        made.append(gym.make(f"browsergym/{task_id}", disable_env_checker=True, **kwargs))
        return made[-1]

    yield make
    for env in made:
        env.close()


def bids(obs) -> dict[str, str]:
    """BrowserGym's element ids (bid) by the accessible names of the page's controls."""
    found = {}
    for line in flatten_axtree_to_str(obs["axtree_object"]).splitlines():
        match = re.match(r"\s*\[(\w+)\] (?:combobox|textbox|button|radio|link) '([^']*)'", line)
        if match:
            found.setdefault(match.group(2), match.group(1))
    return found


def test_the_six_tasks_every_task_of_the_hard_suite_and_every_expert_template_are_registered():
    expert = [f"airlinecrm.expert-{t.name.removeprefix('EXPERT_').lower().replace('_', '-')}" for t in TEMPLATES]
    assert list(airlinecrm_browsergym.TASK_IDS) == EXPECTED_IDS + HARD_IDS + expert
    assert {f"browsergym/{task_id}" for task_id in EXPECTED_IDS + HARD_IDS + expert} <= set(gym.registry)
    assert airlinecrm_browsergym.TASK_SPLITS == {task_id: t.split for task_id, t in zip(expert, TEMPLATES)}


@pytest.mark.parametrize("task_id", ["airlinecrm.expert-name-change-cancel-quote", "airlinecrm.expert-move-or-cancel-book"])
def test_the_gold_steps_and_lines_earn_the_reward_of_an_expert_template(make_env, task_id):
    env = make_env(task_id)
    env.reset(seed=0)
    assert env.unwrapped.task.scenario["conversation"][0]["text"].startswith("Hi. ")
    env.unwrapped.task.cheat(env.unwrapped.page, env.unwrapped.chat.messages)
    _, reward, terminated, _, info = env.step("noop(0)")
    assert (reward, terminated) == (1.0, True) and all(r["ok"] for r in info["task_info"]["requests"])


@pytest.mark.parametrize("task_id", EXPECTED_IDS)
def test_no_action_earns_nothing_and_the_gold_steps_earn_the_reward(make_env, task_id):
    env = make_env(task_id)
    obs, info = env.reset(seed=5)
    task = env.unwrapped.task
    # BrowserGym seed 5 is the CRM's scenario seed 5: the same instruction as the scenario routes give
    url, token = crm_server()
    same = ScenarioClient(url, operator_token=token).generate(airlinecrm_browsergym.TASK_IDS[task_id], 5)[0]
    assert obs["goal"] == same["instruction"] == task.scenario["instruction"]
    assert info["task_info"]["seed"] == 5 and info["task_info"]["details"] == same["details"]
    assert obs["url"] == task.scenario["url"]
    _, reward, terminated, _, info = env.step("noop(0)")
    assert (reward, terminated) == (0.0, False)
    assert info["task_info"]["num_actions"] == 0 and not info["task_info"]["state_check"]["passed"]
    task.cheat(env.unwrapped.page, env.unwrapped.chat.messages)
    obs, reward, terminated, truncated, info = env.step("noop(0)")
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["task_info"]["task_progress"] == 1.0 and info["task_info"]["state_check"]["passed"]
    assert all(info["task_info"]["matched"])


def test_browsergym_actions_are_recorded_and_scored(make_env):
    env = make_env("airlinecrm.find-flight")
    obs, info = env.reset(seed=0)
    flight = info["task_info"]["details"]["flight"]
    assert "return" in flight  # seed 0 is a return trip
    controls = bids(obs)
    for label, value in [("From", flight["from"]), ("To", flight["to"]),
                         ("Departure date", flight["departure"]), ("Return date", flight["return"])]:
        obs, reward, terminated, _, info = env.step(f'fill("{controls[label]}", "{value}")')
        assert obs["last_action_error"] == "" and reward == 0
    obs, reward, terminated, _, info = env.step(f'click("{controls["Search flights"]}")')
    assert obs["last_action_error"] == ""
    assert (reward, terminated) == (1.0, True)
    assert info["task_info"]["num_actions"] == 5 and info["task_info"]["matched"] == [True] * 5


def test_a_server_named_by_airlinecrm_url_is_used(make_env, monkeypatch):
    with embedded_server() as server:
        monkeypatch.setenv("AIRLINECRM_URL", server.url + "/")
        token = server.app.config["OPERATOR_TOKEN"]
        monkeypatch.setenv("CRM_OPERATOR_TOKEN", token)
        assert crm_server() == (server.url, token)
        assert crm_server(operator_token="given") == (server.url, "given")
        env = make_env("airlinecrm.cancel-flight")
        obs, _ = env.reset(seed=4)
        task = env.unwrapped.task
        assert obs["url"].startswith(server.url) and task.client.base_url == server.url
        assert ScenarioClient(server.url).evaluate(task.scenario["id"])["num_actions"] == 0
        task.scenario["gold_actions"] = [{k: v for k, v in step.items() if k != "value"}
                                         for step in task.scenario["gold_actions"]]  # as without the token
        with pytest.raises(RuntimeError, match="set CRM_OPERATOR_TOKEN"):
            task.cheat(env.unwrapped.page, env.unwrapped.chat.messages)
        task.teardown()  # ends the scenario: the page leaves the CRM, so nothing more is recorded
        assert env.unwrapped.page.url == "about:blank" and task.scenario is None
        env.close()  # before the server stops


def test_browsergym_drives_debian_chromium_and_an_answer_ends_the_episode(make_env):
    env = make_env("airlinecrm.find-booking")
    env.reset(seed=1)
    installed = subprocess.run([chromium_executable(), "--version"], capture_output=True, text=True).stdout
    assert env.unwrapped.browser.version in installed
    assert env.unwrapped.chat.browser.version == env.unwrapped.browser.version
    features = [disabled_features(browser) for browser in chromium_browsers()]  # the page's, the chat's
    assert all(set(UNSHOWN_FEATURES) <= names for names in features)
    assert any("OverlayScrollbars" in names for names in features)  # the page's own switch joined with ours
    _, reward, terminated, _, info = env.step('send_msg_to_user("I could not find the booking.")')
    assert (reward, terminated) == (0.0, True) and info["task_info"]["num_actions"] == 0


def disabled_features(pid: int) -> set[str]:
    """What the last --disable-features switch of a process's command line (the one Chromium reads) names."""
    command = (Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")
    return set([arg for arg in command if arg.startswith(DISABLE_FEATURES)][-1].split("=", 1)[1].split(","))


def chromium_browsers() -> set[int]:
    """The Chromium browser processes this process started (not their renderers, GPU and utilities)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        if "chromium" in command[0].decode(errors="replace") and b"--remote-debugging-pipe" in command \
                and not any(part.startswith(b"--type=") for part in command) and descends_from_us(entry.name):
            found.add(int(entry.name))
    return found


def descends_from_us(pid: str) -> bool:
    while pid not in ("0", "1"):
        if pid == str(os.getpid()):
            return True
        try:
            pid = (Path("/proc") / pid / "stat").read_text().rsplit(")", 1)[1].split()[1]
        except (OSError, IndexError):
            return False
    return False


def test_resets_and_new_environments_go_on_in_the_running_browsers(make_env):
    """BrowserGym closes its page's and its chat's browsers at every reset and close: each is kept
    running and lent to the next episode instead (chromium.py), the episode's pages closed."""
    env = make_env("airlinecrm.find-booking")
    env.reset(seed=1)
    running = chromium_browsers()
    old_page = env.unwrapped.page
    env.reset(seed=2)
    assert old_page.is_closed() and not env.unwrapped.page.is_closed()
    other = make_env("airlinecrm.find-flight")
    obs, _ = other.reset(seed=3)
    assert obs["url"] == other.unwrapped.task.scenario["url"]
    assert len(running) >= 2 and chromium_browsers() == running  # the page's and the chat's, no new one
    env.close()
    assert env.unwrapped.browser is None and old_page.context.browser.is_connected()


def test_a_chat_message_goes_to_the_customer_whose_reply_comes_back_in_the_chat(make_env):
    env = make_env("airlinecrm.policy-cancel")
    obs, info = env.reset(seed=0)
    assert "The customer says: " in obs["goal"] and "details" not in info["task_info"]
    obs, reward, terminated, _, info = env.step(
        'send_msg_to_user("Could you give me your confirmation code and your date of birth, please?")')
    assert (reward, terminated) == (0.0, False)
    said = [message["message"] for message in obs["chat_messages"] if message["role"] == "user"]
    assert said[-1].startswith("My confirmation code is ")
    url, token = crm_server()
    call = ScenarioClient(url, operator_token=token)._get("/api/customer/messages",
                                                          scenario=env.unwrapped.task.scenario["id"])["messages"]
    assert [line["role"] for line in call] == ["customer", "agent", "customer"] and call[2]["text"] == said[-1]


def test_report_infeasible_transfers_the_call_to_a_supervisor_and_ends_the_episode(make_env):
    env = make_env("airlinecrm.policy-cancel")
    env.reset(seed=2)  # a Basic fare: only the policy's refusal is right, not a transfer
    obs, reward, terminated, _, info = env.step('report_infeasible("The customer wants a refund on a Basic fare.")')
    assert (reward, terminated, info["task_info"]["transferred"]) == (0.0, True, True)
    assert "transferred to a supervisor" in info["task_info"]["state_check"]["reason"]
    url, token = crm_server()
    call = ScenarioClient(url, operator_token=token)._get("/api/customer/messages",
                                                          scenario=env.unwrapped.task.scenario["id"])["messages"]
    assert call[-2] == {"role": "transfer", "text": "The customer wants a refund on a Basic fare."}


@pytest.mark.parametrize("task_id", ["airlinecrm.policy-cancel", "airlinecrm.find-by-name", "airlinecrm.pushback",
                                     "airlinecrm.upgrade-to-change"])
def test_the_gold_steps_and_lines_earn_the_reward_of_a_hard_task(make_env, task_id):
    env = make_env(task_id)
    env.reset(seed=0)
    _, reward, terminated, _, _ = env.step("noop(0)")
    assert (reward, terminated) == (0.0, False)
    env.unwrapped.task.cheat(env.unwrapped.page, env.unwrapped.chat.messages)
    _, reward, terminated, _, info = env.step("noop(0)")
    assert (reward, terminated) == (1.0, True) and info["task_info"]["said_ok"] is True


def test_a_task_takes_its_ui_variant_as_a_task_keyword(make_env):
    env = make_env("airlinecrm.find-booking", task_kwargs={"ui_variant": 2})
    env.reset(seed=1)
    task = env.unwrapped.task
    assert task.scenario["ui_variant"] == 2
    assert env.unwrapped.page.evaluate("document.body.dataset.uiVariant") == "2"
    task.cheat(env.unwrapped.page, env.unwrapped.chat.messages)
    _, reward, terminated, _, _ = env.step("noop(0)")
    assert (reward, terminated) == (1.0, True)


def test_a_hard_task_on_the_page_channel_has_the_briefing_as_its_goal_and_ends_with_the_call(make_env):
    env = make_env("airlinecrm.policy-cancel", task_kwargs={"channel": "page"})
    obs, _ = env.reset(seed=0)
    task = env.unwrapped.task
    opening = task.scenario["conversation"][0]["text"]
    assert obs["goal"] == task.scenario["instruction"] and opening not in obs["goal"]
    _, reward, terminated, _, _ = env.step("noop(0)")
    assert (reward, terminated) == (0.0, False)
    task.cheat(env.unwrapped.page, env.unwrapped.chat.messages)
    _, reward, terminated, _, info = env.step("noop(0)")
    assert (reward, terminated) == (1.0, True) and info["task_info"]["said_ok"] is True
    assert len(env.unwrapped.chat.messages) == 2  # the assistant's greeting and the goal: no line of the call
