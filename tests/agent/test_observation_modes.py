"""Every observation mode on the real CRM, on the flight results page and the booking view: what
each mode holds, that its ids are the element list's, that every element has a box, that the
images decode, and that a mode not asked for is not made."""
import io
import re

import pytest
from PIL import Image

from agent.env.browser_env import VIEWPORT, CrmEnv
from agent.env.modes import check_modes, describe_modes, modes, page_images, page_text
from agent.env.modes import images
from agent.env.modes.images import CONTROL_COLOR
from agent.policies import make_policy

pytestmark = pytest.mark.browser

ALL_MODES = ("elements", "axtree", "screenshot", "som", "html")


def play_oracle_until(env, task, seed, screen_text):
    """Reset on (task, seed) and follow the oracle until the page shows `screen_text`."""
    obs, info = env.reset(task=task, seed=seed)
    oracle = make_policy("oracle")
    oracle.reset(info["scenario"])
    for _ in range(30):
        if screen_text in obs.text:
            return obs, info["scenario"]
        obs, *_ = env.step(oracle.act(obs)[1])
    pytest.fail(f"the oracle never reached {screen_text!r}")


@pytest.fixture(scope="module")
def pages(live_server, browser):
    """The results page of a flight search and the booking view, observed in every mode."""
    with CrmEnv(live_server, browser=browser, observations=ALL_MODES) as env:
        results, _ = play_oracle_until(env, "TASK_BOOK_FLIGHT", 2, "Select your departing flight")
        booking, scenario = play_oracle_until(env, "TASK_CANCEL_FLIGHT", 2, "Cancel booking")
    return {"results": results, "booking": booking, "code": scenario["details"]["confirmation-code"]}


def ids_in(text, pattern):
    return {int(found) for found in re.findall(pattern, text)}


@pytest.mark.parametrize("name", ["results", "booking"])
def test_every_mode_asked_for_is_there_and_every_element_has_a_box(pages, name):
    obs = pages[name]
    assert tuple(obs.modes) == ALL_MODES
    assert obs.modes["elements"] == obs.text
    assert obs.viewport == VIEWPORT
    for element in obs.elements:
        box = element["box"]
        assert set(box) == {"x", "y", "width", "height"}, element
        assert box["width"] > 0 and box["height"] > 0, element
    assert obs.boxes.keys() == {e["id"] for e in obs.elements}


@pytest.mark.parametrize("name", ["results", "booking"])
def test_axtree_uses_the_element_ids(pages, name):
    obs = pages[name]
    tree = obs.modes["axtree"]
    element_ids = {e["id"] for e in obs.elements}
    control_ids = {e["id"] for e in obs.elements if e["kind"] != "text"}
    shown = ids_in(tree, r"\[(\d+)\]")
    assert shown <= element_ids and control_ids <= shown
    assert len(shown) >= 0.9 * len(element_ids)  # text lines too, by their first text node
    assert tree.splitlines()[0].startswith('RootWebArea "AirlineCRM"')
    for element in obs.elements:
        if element["kind"] == "radio" and element.get("checked"):
            assert re.search(rf"\[{element['id']}\] radio .*checked=true", tree), element
    assert 1_000 < len(tree) < 12_000


@pytest.mark.parametrize("name", ["results", "booking"])
def test_html_is_pruned_and_uses_the_element_ids(pages, name):
    obs = pages[name]
    html = obs.modes["html"]
    control_ids = {e["id"] for e in obs.elements if e["kind"] != "text"}
    assert control_ids <= ids_in(html, r'agent-id="(\d+)"') <= {e["id"] for e in obs.elements}
    assert html.startswith("<body") and html.endswith("</body>")
    for pruned in ("<script", "<style", "<link", " style=", " class=", "<svg"):
        assert pruned not in html
    assert "Passenger details" not in html  # hidden screens are left out
    assert 1_000 < len(html) < 30_000


def test_html_shows_what_the_page_shows(pages):
    html = pages["booking"].modes["html"]
    assert pages["code"] in html and 'data-testid="cancel-booking"' in html


@pytest.mark.parametrize("name", ["results", "booking"])
def test_screenshot_and_set_of_marks_are_viewport_pngs(pages, name):
    obs = pages[name]
    shot = Image.open(io.BytesIO(obs.modes["screenshot"]))
    marked = Image.open(io.BytesIO(obs.modes["som"]))
    assert shot.format == marked.format == "PNG"
    assert shot.size == marked.size == (VIEWPORT["width"], VIEWPORT["height"])
    shot, marked = shot.convert("RGB"), marked.convert("RGB")
    assert shot.tobytes() != marked.tobytes()
    in_view = [e for e in obs.elements if e["kind"] != "text" and e["box"]["y"] > 20
               and e["box"]["y"] + e["box"]["height"] < VIEWPORT["height"]]
    assert in_view
    for element in in_view:  # a mark's box is drawn on the element's left edge
        box = element["box"]
        edge = (int(box["x"]), int(box["y"] + box["height"] / 2))
        assert marked.getpixel(edge) == CONTROL_COLOR, element
    assert page_images(obs) == [obs.modes["screenshot"], obs.modes["som"]]


def test_modes_not_asked_for_are_not_made(live_server, browser, monkeypatch):
    shots = []
    real = images.capture_viewport
    monkeypatch.setattr(images, "capture_viewport", lambda snapshot: shots.append(1) or real(snapshot))
    with CrmEnv(live_server, browser=browser) as env:
        env.reset(task="TASK_FIND_FLIGHT", seed=1)
        obs, *_, info = env.step("CLICK Find booking")
        assert list(obs.modes) == ["elements"] and shots == []
        assert {k for k in info["timings"] if k.startswith("mode_")} == {"mode_elements_ms"}
        assert all("box" in e for e in obs.elements)  # boxes come with every observation
    with CrmEnv(live_server, browser=browser, observations=("screenshot", "som")) as env:
        env.reset(task="TASK_FIND_FLIGHT", seed=1)
        shots.clear()
        obs, *_, info = env.step("CLICK Find booking")
        assert len(shots) == 1  # som draws on the screenshot taken for the screenshot mode
        assert {"mode_screenshot_ms", "mode_som_ms"} <= set(info["timings"])


def test_page_text_for_prompts(pages):
    obs = pages["booking"]
    assert page_text(obs).startswith("[elements]\n<text id=")
    assert "\n\n[axtree]\nRootWebArea" in page_text(obs)


def test_unknown_modes_are_refused_with_the_known_ones(live_server):
    with pytest.raises(ValueError, match="unknown observation mode pixels; known: elements, axtree, screenshot, som, html"):
        CrmEnv(live_server, observations=("elements", "pixels"))
    assert check_modes(["som", " elements", "som"]) == ("som", "elements")
    assert all(f"{name}: " in describe_modes() for name in modes())
