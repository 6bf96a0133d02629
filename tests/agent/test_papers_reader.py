"""The `paper` suite as the authors' own page reader sees it (tests/agent/papers_reader.py, from a
Chrome DevTools DOM snapshot as the reader takes one, in its 1280x1080 window): on every page and
dialog of the five paper tasks, the control each gold step touches is listed, and the paper
observation (agent/env/paper_observation.py) lists the same controls as the reader."""
from __future__ import annotations

from collections import Counter

import pytest

from agent.crm.client import ScenarioClient
from agent.env.executor import perform
from agent.env.observation import observe
from agent.env.paper_observation import PAPER
from agent.policies.oracle import OraclePolicy
from scenarios.targets import kind_of
from tests.agent.papers_reader import reader_listing

pytestmark = pytest.mark.browser

PAPER_TASKS = ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
               "TASK_UPDATE_PASSENGER_DETAILS")
READER_WINDOW = {"width": 1280, "height": 1080}  # the reader's set_viewport_size
SEEDS = (0, 1, 5)
# The key of each observed element, asked in one call into the page (not a handle and a call per element).
CONTROL_KEYS = """ids => ids.map((id) => {
    const el = window.__agent.node(id);
    return [el.tagName.toLowerCase(), el.dataset.testid || "", el.dataset.field || "",
            el.getAttribute("value") || "", el.getAttribute("aria-label") || ""];
})"""


def control_key(attributes: dict, tag: str) -> tuple:
    return (tag, attributes.get("data-testid", ""), attributes.get("data-field", ""), attributes.get("value", ""),
            attributes.get("aria-label", ""))


def touches(step: dict, attributes: dict) -> bool:
    """Whether an element with these attributes is the control of gold step `step`."""
    target = step["target"]
    if step["action"] == "fill" and kind_of(target) in ("choice", "flight"):  # radios named by their value
        return attributes.get("data-field") == target and \
            attributes.get("value", "").lower() == str(step["value"]).lower()
    return attributes.get("data-testid") == target


def observed_controls(page, observation) -> Counter:
    """The controls (not text lines) the paper observation lists inside the reader's window."""
    ids = [item["id"] for item in observation.elements if item["kind"] != "text" and not item.get("offscreen")]
    return Counter(tuple(key) for key in page.evaluate(CONTROL_KEYS, ids))


def read_controls(listing, modal: bool) -> Counter:
    """The controls the reader lists (inside the open dialog when one is open: the paper observation
    shows the dialog alone, as nothing behind a modal dialog can be clicked)."""
    return Counter(control_key(entry.attributes, entry.tag) for entry in listing
                   if entry.kind != "text" and (entry.in_open_dialog or not modal))


@pytest.mark.parametrize("task", PAPER_TASKS)
def test_the_reader_lists_every_control_of_the_gold_path(browser, live_server, task):
    client = ScenarioClient(live_server)
    for seed in SEEDS:
        scenario, _ = client.generate(task, seed, "paper")
        oracle = OraclePolicy()
        oracle.reset(scenario)
        context = browser.new_context(viewport=READER_WINDOW)
        try:
            page = context.new_page()
            page.goto(scenario["url"])
            page.wait_for_function("() => window.crm && window.crm.ready === true")
            for number, step in enumerate(scenario["gold_actions"], 1):
                observation = observe(page, settle=True, reading=PAPER)
                listing = reader_listing(page)
                where = f"{task} seed {seed}, gold step {number} ({step['action']} {step['target']})"
                assert any(touches(step, entry.attributes) for entry in listing), \
                    f"{where}: the reader does not list its control:\n" + "\n".join(e.line() for e in listing)
                modal = page.evaluate("Boolean(document.querySelector('dialog[open]:modal'))")
                assert observed_controls(page, observation) == read_controls(listing, modal), where
                _, action = oracle.act(observation)
                _, error = perform(page, action, observation.elements)
                assert error is None, f"{where}: {action}: {error}"
            page.evaluate("window.crm.whenIdle()")
            assert client.evaluate(scenario["id"])["success"] == 1, f"{task} seed {seed}"
        finally:
            context.close()
