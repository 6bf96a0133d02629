"""Every task's gold sequence, followed in headless Chromium through visible labels only, scores 1.

The driver knows nothing but each gold step's action, label and value: fields are found by their
label, buttons and links by their name, flights by the row whose number matches.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from crm_app.services.validation import GENDERS, TITLES
from scenarios.targets import TARGETS
from scenarios.tasks import TASKS
from tests.conftest import OPERATOR

# The page and the gold steps are what this checks: make test's PostgreSQL pass leaves it out and
# checks the stored events and their scores through the API (test_scenario_api.py).
pytestmark = [pytest.mark.browser, pytest.mark.database_independent]

CHOICES = {choice.lower(): choice for choice in (*TITLES, *GENDERS)}


def _visible(locator):
    return locator.filter(visible=True)


def click(page: Page, label: str) -> None:
    control = page.get_by_role("button", name=label, exact=True).or_(page.get_by_role("link", name=label, exact=True))
    _visible(control).click()
    page.evaluate("window.crm.whenIdle()")


def fill(page: Page, step: dict) -> None:
    kind, label, value = TARGETS[step["target"]].kind, step["label"], step["value"]
    if step["target"] == "trip-type":
        _visible(page.get_by_label(label, exact=True)).check()
    elif kind == "flight":
        table = _visible(page.get_by_role("table", name=label, exact=True))
        table.get_by_role("radio", name=re.compile(rf"^Select {re.escape(value)}\b")).check()
    elif kind == "choice":
        _visible(page.get_by_label(label, exact=True)).select_option(CHOICES[value])
    else:
        field = _visible(page.get_by_label(label, exact=True))
        field.fill(value)
        field.press("Tab")
    page.evaluate("window.crm.whenIdle()")


def follow(page: Page, gold: list[dict]) -> None:
    for step in gold:
        if step["action"] == "click":
            click(page, step["label"])
        else:
            fill(page, step)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("task", list(TASKS))
def test_gold_sequence_by_labels_scores_full_marks(live_app, live_server, page, task, seed):
    client = live_app.test_client()
    scenario = client.get(f"/generate-random-scenario?task={task}&seed={seed}").json
    gold = client.get(f"/evaluate?scenario={scenario['id']}", headers=OPERATOR).json["gold_actions"]
    page.goto(scenario["url"].replace("http://localhost/", f"{live_server}/"))
    page.wait_for_function("() => window.crm && window.crm.ready === true")
    follow(page, gold)
    page.evaluate("window.crm.whenIdle()")
    result = client.get(f"/evaluate?scenario={scenario['id']}").json
    assert result["state_check"]["reason"] == "the goal holds and nothing else changed"
    assert (result["success"], result["task_progress"], result["num_actions"]) == (1, 1.0, len(gold)), \
        [m["action"] for m in result["metrics"]]
