"""The environment on the real CRM page: actions by id and by label, failures reported without
ending the episode, and the results page as an agent reads it."""
import datetime as dt
import itertools

import pytest

from agent.env.browser_env import CrmEnv
from agent.env.modes import devtools_session
from agent.env.observation import parse_observation
from crm_app.http_client import http_sender

pytestmark = pytest.mark.browser


@pytest.fixture
def env(live_server, browser):
    # These tests read what each action recorded from the scores after it.
    environment = CrmEnv(live_server, browser=browser, metrics_every_step=True)
    yield environment
    environment.close()


def element(obs, kind, name):
    return next(e for e in parse_observation(obs.text) if e["kind"] == kind and e["name"] == name)


def get_json(base_url, path):
    status, body = http_sender(base_url)("GET", path)
    assert status == 200, body
    return body


def test_invalid_actions_leave_the_episode_running_and_say_why(env):
    obs, _ = env.reset(task="TASK_FIND_FLIGHT", seed=11)
    search = element(obs, "button", "Search flights")["id"]
    for action, message in [
        ("CLICK 9999", "There is no element with id 9999 on the page."),
        (f'TYPE {search} "JFK"', f"Element {search} is a button, not a text field or select"),
        ("fly to JFK", "Unknown action 'fly'"),
        ('TYPE Frm "JFK"', "No element labelled 'Frm' on the page."),
    ]:
        obs, reward, terminated, truncated, info = env.step(action)
        assert not terminated and not truncated and reward == 0
        assert message in info["error"]
        assert obs.text.splitlines()[0].startswith("ERROR: ") and message in obs.text.splitlines()[0]
    obs, _, terminated, _, info = env.step('TYPE From "JFK"')
    assert info["error"] is None and not obs.text.startswith("ERROR")
    assert element(obs, "input", "From")["value"].endswith("JFK")
    assert info["metrics"]["num_actions"] == 0  # failed actions record nothing on the page


def test_actions_by_label_commit_like_a_person(env):
    obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=12)
    today = dt.date.fromisoformat(get_json(env.client.base_url, "/api/config")["today"])
    depart, back = today + dt.timedelta(days=20), today + dt.timedelta(days=27)
    for action in ['TYPE From "JFK"', 'type [To] [LAX]', f'TYPE Departure date "{depart.isoformat()}"',
                   f'TYPE Return date "{back.strftime("%m/%d/%Y")}"', "CLICK Search flights"]:
        obs, _, _, _, info = env.step(action)
        assert info["error"] is None, info["error"]
    assert "Select your departing flight" in obs.text and "Select your return flight" in obs.text
    events = info["metrics"]["num_actions"]
    assert events == 5  # four committed fields and the click, each recorded once


def test_stop_ends_the_episode_with_the_answer(env):
    env.reset(task="TASK_FIND_BOOKING", seed=3)
    _, reward, terminated, truncated, info = env.step("stop [not found]")
    assert terminated and not truncated
    assert info["answer"] == "not found" and reward == 0.0


def test_episode_is_truncated_at_the_step_limit(live_server, browser):
    with CrmEnv(live_server, browser=browser, max_steps=2) as env:
        env.reset(task="TASK_FIND_BOOKING", seed=4)
        assert env.step("CLICK 9999")[3] is False
        _, _, terminated, truncated, _ = env.step("CLICK 9999")
        assert truncated and not terminated


def full_route(base_url):
    """A route and dates with 8 flights each way (the most the schedule has)."""
    config = get_json(base_url, "/api/config")
    codes = [a["code"] for a in get_json(base_url, "/api/airports?q=")["airports"]]
    first = dt.date.fromisoformat(config["today"]) + dt.timedelta(days=10)
    for (origin, destination), offset in itertools.product(itertools.permutations(codes[:12], 2), range(0, 60, 7)):
        depart, back = first + dt.timedelta(days=offset), first + dt.timedelta(days=offset + 3)
        answer = get_json(base_url, f"/api/flights/search?from={origin}&to={destination}"
                                    f"&date={depart}&return={back}")
        if len(answer["flights"]) == 8 and len(answer["return_flights"]) == 8:
            return origin, destination, depart, back, answer
    pytest.fail("no route with 8 flights each way")


def test_results_page_lists_every_flight_compactly(env, live_server):
    origin, destination, depart, back, answer = full_route(live_server)
    obs, _ = env.reset(task="TASK_FIND_FLIGHT", seed=5)
    for label, value in [("From", origin), ("To", destination), ("Departure date", depart), ("Return date", back)]:
        obs, *_ = env.step(f'TYPE {element(obs, "input", label)["id"]} "{value}"')
    obs, *_, info = env.step(f'CLICK {element(obs, "button", "Search flights")["id"]}')
    assert info["error"] is None
    items = parse_observation(obs.text)
    radios = [e for e in items if e["kind"] == "radio" and e["name"].startswith("Select ")]
    assert len(radios) == 16
    for flight in answer["flights"] + answer["return_flights"]:
        row = next(e["name"] for e in radios if flight["number"] in e["name"].split())
        assert flight["departure_time"] in row.split() and f"${flight['price']}" in row.split()
    assert obs.tokens < 600, obs.text
    picked = radios[3]
    obs, *_, info = env.step(f"CLICK {picked['id']}")
    assert element(obs, "radio", picked["name"]).get("checked")


def test_typing_a_city_offers_airports_to_pick(env):
    env.reset(task="TASK_FIND_FLIGHT", seed=13)
    obs, *_, info = env.step('TYPE From "New York"')
    options = [e["name"] for e in parse_observation(obs.text) if e["kind"] == "option"]
    assert "New York, NY (JFK)" in options and info["metrics"]["num_actions"] == 0
    obs, *_, info = env.step("CLICK New York, NY (JFK)")
    assert element(obs, "input", "From")["value"] == "New York, NY (JFK)"
    assert not any(e["kind"] == "option" for e in parse_observation(obs.text))
    assert info["metrics"]["num_actions"] == 1  # the picked airport is committed and recorded
    obs, *_, info = env.step("CLEAR From")
    assert info["error"] is None and element(obs, "input", "From")["value"] == ""


def test_scroll_moves_the_page_and_is_refused_at_its_ends(env):
    """The change-flights form makes the page taller than the window: scrolling brings the header
    back into view and takes the lower elements out of it; it records no event."""
    from agent.policies import make_policy

    obs, info = env.reset(task="TASK_MODIFY_FLIGHT", seed=1)
    oracle = make_policy("oracle")
    oracle.reset(info["scenario"])
    while "Save flights" not in obs.text:
        obs, *_, info = env.step(oracle.act(obs)[1])
    offscreen = lambda o: {e["id"]: e.get("offscreen") for e in o.elements if e.get("offscreen")}  # noqa: E731
    assert "above" in offscreen(obs).values()  # the click scrolled the form into view, the header out of it
    events = info["metrics"]["num_actions"]
    obs, *_, info = env.step("SCROLL up")
    assert info["error"] is None and "above" not in offscreen(obs).values() and "below" in offscreen(obs).values()
    obs, *_, info = env.step("scroll [up]")
    assert info["error"] == "SCROLL up failed: The page is already at the top; it cannot scroll up."
    obs, *_, info = env.step("SCROLL down")
    assert info["error"] is None and "above" in offscreen(obs).values()
    assert info["metrics"]["num_actions"] == events


def window_state(page) -> str:
    session = devtools_session(page)
    window = session.send("Browser.getWindowForTarget")["windowId"]
    return session.send("Browser.getWindowBounds", {"windowId": window})["bounds"]["windowState"]


def test_a_page_read_as_text_draws_no_frames_and_keys_still_scroll_it(env, live_server, browser):
    """Its window is minimized (nothing looks at its pixels), and a key's scroll is done when the
    page is observed: it jumps, where a glide would wait for frames the page no longer draws."""
    from agent.policies import make_policy

    obs, info = env.reset(task="TASK_MODIFY_FLIGHT", seed=1)
    assert window_state(env.page) == "minimized"
    oracle = make_policy("oracle")
    oracle.reset(info["scenario"])
    while "Save flights" not in obs.text:
        obs, *_, info = env.step(oracle.act(obs)[1])
    offscreen = lambda o: {e.get("offscreen") for e in o.elements}  # noqa: E731
    obs, *_, info = env.step("PRESS Home")
    assert info["error"] is None and "above" not in offscreen(obs) and "below" in offscreen(obs)
    obs, *_, info = env.step("PRESS End")
    assert info["error"] is None and "above" in offscreen(obs) and "below" not in offscreen(obs)
    with CrmEnv(live_server, browser=browser, observations=("elements", "screenshot")) as seen:
        seen.reset(task="TASK_FIND_FLIGHT", seed=1)
        assert window_state(seen.page) == "normal"  # its screenshots are drawn frames


def test_the_environment_is_importable_from_agent_env_as_before():
    import agent.env
    from agent.env import ApiEnv, BrowserHost
    from agent.env import CrmEnv as handed_on  # the path code from before agent/'s layers uses

    assert handed_on is CrmEnv and ApiEnv.__module__ == "agent.env.api_env" and BrowserHost.__name__ == "BrowserHost"
    assert all(getattr(agent.env, name) is not None for name in agent.env.__all__)
    assert set(agent.env.__all__) <= set(dir(agent.env))
    with pytest.raises(ImportError):
        from agent.env import NoSuchName  # noqa: F401
