"""Scenarios worked through the real UI: the page's events and changes score full marks."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .ui import book_in_ui, open_app, open_booking, region, search_and_choose, us

pytestmark = pytest.mark.browser


@pytest.fixture
def scenario(live_app, live_server, page):
    """Makes a scenario of `task` and opens the page bound to it; returns its details."""
    client = live_app.test_client()

    def make(task, seed=7):
        answer = client.get(f"/generate-random-scenario?task={task}&seed={seed}")
        assert answer.status_code == 200, answer.json
        open_app(page, live_server, f"?scenario={answer.json['id']}")
        return answer.json

    def evaluate(scenario_id):
        page.evaluate("window.crm.whenIdle()")
        return client.get(f"/evaluate?scenario={scenario_id}").json

    make.evaluate = evaluate
    return make


def test_book_flight_scenario(page, scenario):
    made = scenario("TASK_BOOK_FLIGHT")
    book_in_ui(page, made["details"])
    result = scenario.evaluate(made["id"])
    assert result["task_progress"] == 1.0, result
    assert result["success"] == 1, result


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


@pytest.mark.parametrize("seed", [3, 11])
def test_update_passenger_scenario(page, scenario, seed):
    made = scenario("TASK_UPDATE_PASSENGER_DETAILS", seed)
    details = made["details"]
    open_booking(page, details["confirmation-code"])
    page.get_by_role("button", name="Modify booking").click()
    form = page.get_by_role("form", name="Passenger details")
    for key, value in details["passenger"].items():
        field = form.get_by_label(LABELS[key], exact=True)
        if key in ("title", "gender"):
            field.select_option(value)
        else:
            field.fill(us(value) if key == "dob" else value)
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
