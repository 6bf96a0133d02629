"""Warm resets and one-call steps (agent/env/browser_env.py): a reset switches the open page to the
new scenario inside the app, and its first observation is the one a newly loaded page gives, on
every task; a page that cannot switch is loaded anew; a click or a typed value is carried out,
waited for and read in one call into the page."""
import pytest

from agent.env.browser_env import CrmEnv
from agent.env.observation import observe
from agent.policies import make_policy
from agent.experiment.protocols import PROTOCOLS
from scenarios.suites import SUITES
from tests.agent.counted import CountedEvaluations
from tests.conftest import OPERATOR_TOKEN


def play_to_the_end(env, obs, scenario) -> dict:
    oracle = make_policy("oracle")
    oracle.reset(scenario)
    for _ in range(env.max_steps):
        obs, _, terminated, truncated, info = env.step(oracle.act(obs)[1])
        if terminated or truncated:
            return info["metrics"]
    pytest.fail("the episode did not end")


def page_seen(obs, scenario) -> dict:
    """What an agent is shown, the scenario's id aside (each reset makes a scenario of its own)."""
    return {"text": obs.text, "url": obs.url.replace(scenario["id"], "ID"), "elements": obs.elements,
            "viewport": obs.viewport}


def _sample(tasks: list) -> list:
    """Every task of a suite; of the expert suite's hundred-odd templates, which share one look, every 11th."""
    return tasks[::11] if len(tasks) > 50 else tasks


@pytest.mark.parametrize("suite", SUITES)
def test_a_warm_reset_shows_what_a_loaded_page_shows_on_every_task(live_server, browser, suite):
    """Each task's scenario is switched to on the page the previous task's finished episode left
    (results listed, a booking open, a dialog closed...), and compared with a newly loaded page, in
    each suite as its protocol reads the page (the papers' reader for the paper suite)."""
    options = PROTOCOLS[suite].env_options()
    with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, **options) as warm, \
            CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, warm_resets=False, **options) as cold:
        for number, task in enumerate(task.name for task in _sample(SUITES[suite].tasks)):
            switched, warm_info = warm.reset(task=task, seed=5)
            loaded, cold_info = cold.reset(task=task, seed=5)
            assert (warm_info["warm_reset"], cold_info["warm_reset"]) == (number > 0, False), task
            assert page_seen(switched, warm_info["scenario"]) == page_seen(loaded, cold_info["scenario"]), task
            assert switched.url == warm_info["scenario"]["url"]
            metrics = play_to_the_end(warm, switched, warm_info["scenario"])
            assert (metrics["success"], metrics["task_progress"]) == (1, 1.0), (task, metrics["state_check"])


def test_the_switched_page_records_for_its_own_scenario_only(live_server, browser):
    with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, suite="full") as env:
        obs, first = env.reset(task="TASK_BOOK_FLIGHT", seed=8)
        scored = play_to_the_end(env, obs, first["scenario"])
        assert scored["success"] == 1
        obs, second = env.reset(task="TASK_FIND_FLIGHT", seed=8)
        assert second["warm_reset"] and second["metrics"]["num_actions"] == 0
        assert play_to_the_end(env, obs, second["scenario"])["success"] == 1
        # nothing of the second episode joined the first scenario
        assert env.client.evaluate(first["scenario"]["id"]) == scored


def test_back_at_the_first_screen_of_a_switched_episode_reaches_no_other_scenario(live_server, browser):
    with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, suite="full") as env:
        env.reset(task="TASK_FIND_BOOKING", seed=1)
        env.step("CLICK Find booking")  # the first scenario's page goes to #find: a history entry
        obs, info = env.reset(task="TASK_FIND_BOOKING", seed=2)
        assert info["warm_reset"]
        env.step("CLICK Find booking")
        env.page.go_back()  # Back inside the episode still works: to its first screen
        assert env.page.url == info["scenario"]["url"]
        env.page.go_back()  # Back at the first screen: no earlier entry, as on a new page
        assert env.page.url == info["scenario"]["url"]
        assert env.page.evaluate("history.length") == 2
        assert "Search flights" in observe(env.page, settle=True).text


def test_a_page_that_cannot_switch_is_loaded_anew(live_server, browser):
    with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, suite="full") as env:
        env.reset(task="TASK_FIND_FLIGHT", seed=1)
        env.page.goto("about:blank")  # no CRM app on the page any more
        obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=2)
        assert not info["warm_reset"] and obs.url == info["scenario"]["url"] and "Search flights" in obs.text
        _, info = env.reset(task="TASK_FIND_FLIGHT", seed=3, ui_variant="2")  # another look: loaded
        assert not info["warm_reset"]
        _, info = env.reset(task="TASK_FIND_FLIGHT", seed=4, ui_variant="2")  # the same look again: switched
        assert info["warm_reset"]
    with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, suite="full", warm_resets=False) as env:
        env.reset(task="TASK_FIND_FLIGHT", seed=1)
        assert not env.reset(task="TASK_FIND_FLIGHT", seed=2)[1]["warm_reset"]


def test_a_click_or_a_typed_value_is_one_call_into_the_page(live_server, browser):
    with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, suite="full") as env:
        obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=3)
        oracle = make_policy("oracle")
        oracle.reset(info["scenario"])
        counted = env.page = CountedEvaluations(env.page)  # the calls into the page
        kinds = set()
        for _ in range(env.max_steps):
            action = oracle.act(obs)[1]
            counted.calls = 0
            obs, _, terminated, truncated, step = env.step(action)
            assert counted.calls == 1 and step["error"] is None, action
            kinds.add(action.split()[0])
            if terminated or truncated:
                break
        assert kinds == {"TYPE", "CLICK", "STOP"} and step["metrics"]["success"] == 1
