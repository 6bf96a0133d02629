"""Scenarios worked through the real UI: the page's events and changes score full marks."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .ui import book_in_ui, choose, open_app, open_booking, region, search_and_choose, us

pytestmark = pytest.mark.browser


@pytest.fixture
def scenario(live_app, live_server, page):
    """Makes a scenario of `task` and opens the page bound to it; returns its details."""
    client = live_app.test_client()

    def make(task, seed=7, suite="full"):
        answer = client.get(f"/generate-random-scenario?task={task}&seed={seed}&suite={suite}")
        assert answer.status_code == 200, answer.json
        open_app(page, live_server, f"?scenario={answer.json['id']}")
        return answer.json

    def evaluate(scenario_id):
        page.evaluate("window.crm.whenIdle()")
        return client.get(f"/evaluate?scenario={scenario_id}").json

    make.evaluate = evaluate
    return make


@pytest.mark.parametrize("suite", ["full", "paper"])
def test_book_flight_scenario(page, scenario, suite):
    """The paper suite's page asks for Title and Gender with radio buttons, the full suite's with
    selects; either way the gold path scores full marks, one action per gold step."""
    made = scenario("TASK_BOOK_FLIGHT", suite=suite)
    passenger = page.get_by_role("region", name="Passenger details", include_hidden=True)  # a later screen
    expect(passenger.get_by_role("group", name="Title", include_hidden=True)).to_have_count(int(suite == "paper"))
    expect(passenger.get_by_role("combobox", name="Title", include_hidden=True)).to_have_count(int(suite == "full"))
    book_in_ui(page, made["details"])
    result = scenario.evaluate(made["id"])
    assert result["task_progress"] == 1.0, result
    assert result["success"] == 1, result
    assert result["num_actions"] == len(result["gold_actions"]) == 20


def test_modify_flight_scenario(page, scenario):
    made = scenario("TASK_MODIFY_FLIGHT")
    details = made["details"]
    open_booking(page, details["confirmation-code"])
    page.get_by_role("button", name="Modify booking").click()
    flights = region(page, "Flights")
    flights.get_by_role("button", name="Change flights").click()
    search_and_choose(page, flights, details["flight"])
    flights.get_by_role("button", name="Save flights").click()
    expect(page.get_by_text("Flights changed")).to_be_visible()
    result = scenario.evaluate(made["id"])
    assert result["task_progress"] == 1.0, result
    assert result["success"] == 1, result


LABELS = {"title": "Title", "firstname": "First name", "lastname": "Last name",
          "email": "Email address", "gender": "Gender", "dob": "Date of birth"}


@pytest.mark.parametrize("seed, suite", [(3, "full"), (11, "full"), (5, "paper"), (11, "paper")])
def test_update_passenger_scenario(page, scenario, seed, suite):
    made = scenario("TASK_UPDATE_PASSENGER_DETAILS", seed, suite)
    details = made["details"]
    open_booking(page, details["confirmation-code"])
    page.get_by_role("button", name="Modify booking").click()
    form = page.get_by_role("form", name="Passenger details")
    for key, value in details["passenger"].items():
        if key in ("title", "gender"):
            choose(form, LABELS[key], value)
        else:
            form.get_by_label(LABELS[key], exact=True).fill(us(value) if key == "dob" else value)
    form.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Passenger details saved")).to_be_visible()
    result = scenario.evaluate(made["id"])
    assert result["task_progress"] == 1.0, result
    assert result["success"] == 1, result


def test_cancel_scenario(page, scenario):
    made = scenario("TASK_CANCEL_FLIGHT")
    code = made["details"]["confirmation-code"]
    open_booking(page, code)
    page.get_by_role("button", name="Cancel booking").click()
    dialog = page.get_by_role("dialog", name="Cancel booking")
    dialog.get_by_label("Confirmation code").fill(code)
    dialog.get_by_role("button", name="Confirm cancellation").click()
    expect(region(page, f"Booking {code}").get_by_text("Cancelled", exact=True)).to_be_visible()
    result = scenario.evaluate(made["id"])
    assert result["task_progress"] == 1.0, result
    assert result["success"] == 1, result
    assert result["num_actions"] == 6, result
