"""Actions by position on the real CRM: the oracle solves every task with mouse clicks at element
boxes and keys alone, the page records them exactly as element actions, and the datepicker, the
airport autocomplete, keyboard submission, scrolling and hovering work by position."""
import datetime as dt
import json

import pytest

from agent.env.browser_env import CrmEnv
from agent.policies import make_policy
from scenarios.tasks import TASK_NAMES

pytestmark = pytest.mark.browser

ONE_WAY_SEED = 8  # flight tasks draw a one-way trip for seed 8 (see test_policy_tasks.py)


@pytest.fixture
def env(live_server, browser):
    # These tests read what each action recorded from the scores after it.
    with CrmEnv(live_server, browser=browser, max_steps=150, metrics_every_step=True) as environment:
        yield environment


def play(env, method, task, seed):
    obs, info = env.reset(task=task, seed=seed)
    policy = make_policy(method)
    policy.reset(info["scenario"])
    actions = []
    for _ in range(env.max_steps):
        action = policy.act(obs)[1]
        actions.append(action)
        obs, _, terminated, truncated, info = env.step(action)
        assert info["error"] is None, (action, info["error"])
        if terminated or truncated:
            return actions, info["metrics"], info
    pytest.fail("the episode did not end")


def center(element):
    box = element["box"]
    return f'{box["x"] + box["width"] / 2:g} {box["y"] + box["height"] / 2:g}'


def named(obs, name, kinds=None):
    return next(e for e in obs.elements if e["name"] == name and (kinds is None or e["kind"] in kinds))


def recorded(info):
    """The events the scorer has, as it describes them."""
    return [entry["action"] for entry in info["metrics"]["metrics"] if entry["step"] > 0]


@pytest.mark.parametrize("task, seed", [(task, 0) for task in TASK_NAMES] + [("TASK_MODIFY_FLIGHT", ONE_WAY_SEED)])
def test_the_oracle_solves_every_task_by_position_alone(env, task, seed):
    actions, metrics, _ = play(env, "oracle-coordinates", task, seed)
    assert (metrics["success"], metrics["task_progress"]) == (1, 1.0)
    assert {action.split()[0] for action in actions} <= {"CLICK_AT", "TYPE_TEXT", "PRESS", "STOP"}
    assert actions[-1].startswith("STOP")
    # the scorer saw the same events as when the oracle acts on elements: how a click came is no matter
    _, by_element, _ = play(env, "oracle", task, seed)
    assert [m["action"] for m in metrics["metrics"]] == [m["action"] for m in by_element["metrics"]]
    assert metrics["matched"] == by_element["matched"] == [True] * len(metrics["matched"])


def test_a_date_is_picked_in_the_datepicker_with_the_mouse(env):
    obs, _ = env.reset(task="TASK_FIND_FLIGHT", seed=21)
    obs, *_ = env.step(f"CLICK_AT {center(named(obs, 'Open calendar (departure)'))}")
    obs, *_ = env.step(f"CLICK_AT {center(named(obs, 'Next month'))}")
    day = next(e for e in obs.elements if e["kind"] == "button" and e["name"].endswith(", 2026")
               and not e.get("disabled") and e["name"].split()[1] == "15,")
    obs, *_, info = env.step(f"CLICK_AT {center(day)}")
    iso = dt.datetime.strptime(day["name"], "%B %d, %Y").date().isoformat()
    assert recorded(info) == [f'fill search-depart "{iso}"']
    assert named(obs, "Departure date")["value"] == dt.date.fromisoformat(iso).strftime("%m/%d/%Y")
    assert not any(e["name"] == "Next month" for e in obs.elements)  # the calendar closed


def test_an_airport_is_picked_from_the_suggestions_by_keyboard_and_by_mouse(env):
    obs, _ = env.reset(task="TASK_FIND_FLIGHT", seed=22)
    env.step(f"CLICK_AT {center(named(obs, 'From'))}")
    obs, *_, info = env.step('TYPE_TEXT "New York"')
    options = [e for e in obs.elements if e["kind"] == "option"]
    assert len(options) >= 2 and info["error"] is None and recorded(info) == []
    second = options[1]["name"]  # the first is highlighted: one ArrowDown reaches the second
    env.step("PRESS ArrowDown")
    obs, *_, info = env.step("PRESS Enter")
    code = second[-4:-1]
    assert named(obs, "From")["value"] == second and recorded(info) == [f'fill search-from "{code}"']
    env.step(f"CLICK_AT {center(named(obs, 'To'))}")
    obs, *_ = env.step('TYPE_TEXT "Los Angeles"')
    option = next(e for e in obs.elements if e["kind"] == "option" and "(LAX)" in e["name"])
    obs, *_, info = env.step(f"CLICK_AT {center(option)}")
    assert named(obs, "To")["value"] == option["name"]
    assert recorded(info)[-1] == 'fill search-to "LAX"'


def test_typed_fields_and_enter_submit_the_search_as_clicks_do(env):
    obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=ONE_WAY_SEED)
    flight = info["scenario"]["details"]["flight"]
    details = {"from": flight["from"], "to": flight["to"], "depart": flight["departure"]}
    env.step(f"CLICK_AT {center(named(obs, 'One way'))}")
    for label, value in [("From", details["from"]), ("To", details["to"]), ("Departure date", details["depart"])]:
        env.step(f"CLICK_AT {center(named(obs, label))}")
        obs, *_, info = env.step(f'TYPE_TEXT "{value}"')
    obs, *_, info = env.step("PRESS Enter")  # the form's implicit submission clicks Search flights
    assert "Select your departing flight" in obs.text
    assert recorded(info) == ['fill trip-type "oneway"', f'fill search-from "{details["from"]}"',
                              f'fill search-to "{details["to"]}"', f'fill search-depart "{details["depart"]}"',
                              "click search-submit"]
    assert info["metrics"]["success"] == 1


def test_scroll_moves_every_box_and_move_to_hovers_without_recording(env):
    obs, _ = env.reset(task="TASK_BOOK_FLIGHT", seed=3)
    oracle = make_policy("oracle")
    oracle.reset(env.scenario)
    while "Select your departing flight" not in obs.text:
        obs, *_ = env.step(oracle.act(obs)[1])
    tallest = env.page.evaluate("document.documentElement.scrollHeight - innerHeight")
    assert tallest > 100, "the results page should be taller than the viewport"
    before = {e["id"]: e["box"]["y"] for e in obs.elements}
    obs, *_, info = env.step("SCROLL 0 100")
    assert info["error"] is None
    assert all(round(before[e["id"]] - e["box"]["y"], 1) == 100 for e in obs.elements if e["id"] in before)
    obs, *_, info = env.step("SCROLL 0 -40")
    assert all(round(before[e["id"]] - e["box"]["y"], 1) == 60 for e in obs.elements if e["id"] in before)
    events = info["metrics"]["num_actions"]
    button = named(obs, "Checkout")
    _, *_, info = env.step(f"MOVE_TO {center(button)}")
    hovered = env.page.evaluate("[...document.querySelectorAll(':hover')].map(e => e.dataset.testid)")
    assert "checkout" in hovered and info["metrics"]["num_actions"] == events


def test_actions_by_position_that_cannot_be_done_say_why(env):
    obs, _ = env.reset(task="TASK_FIND_FLIGHT", seed=23)
    obs, *_, info = env.step("CLICK_AT 1400 20")
    assert info["error"] == "CLICK_AT 1400 20 failed: The point (1400, 20) is outside the 1280x900 viewport; " \
                            "scroll to bring the element into view."
    assert obs.text.startswith("ERROR: CLICK_AT 1400 20 failed")
    obs, *_, info = env.step(f"CLICK_AT {center(named(obs, 'Search flights'))}")
    obs, *_, info = env.step('TYPE_TEXT "JFK"')
    assert "No text field has the focus (" in info["error"] and "click the field first." in info["error"]
    _, *_, info = env.step("PRESS Hyper+x")
    assert "'Hyper+x' is not a key" in info["error"]


def test_trajectories_of_a_coordinate_run_record_the_modes(tmp_path, live_server):
    from agent.__main__ import main

    main(["run", "--method", "oracle-coordinates", "--tasks", "TASK_FIND_BOOKING", "--episodes", "1",
          "--observations", "som,axtree", "--out", str(tmp_path), "--quiet", "--server", live_server])
    trajectory = json.loads((tmp_path / "oracle-coordinates-som+axtree" / "TASK_FIND_BOOKING"
                             / "seed0-trial0.json").read_text())
    assert trajectory["metrics"]["success"] == 1 and trajectory["observations"] == ["som", "axtree"]
    first = trajectory["steps"][0]
    assert first["action"].startswith("CLICK_AT ")
    assert first["modes"]["axtree"].startswith("RootWebArea") and first["modes"]["som"]["png_bytes"] > 10_000
    assert len(first["modes"]["som"]["sha256"]) == 64
