"""The event recorder: what a scenario-bound page posts to /api/events.

The scenario is faked at the network level (config says the page is bound to "evtest"; other API
calls go to the sandbox), so these tests check the page alone; the scoring of real scenarios is
tested with the scenarios package.
"""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .ui import (fill_passenger, fill_search, open_app, pick_airport, region, search_flights,
                 select_flight)

pytestmark = pytest.mark.browser
SCENARIO = "evtest"


@pytest.fixture
def recorded(page, live_server):
    """Binds the page to a fake scenario; returns the list the posted events land in."""
    events = []

    def on_event(route):
        events.append(json.loads(route.request.post_data))
        assert route.request.headers.get("x-scenario-id") == SCENARIO
        route.fulfill(status=201, json={"number": len(events)})

    def on_config(route):
        route.fulfill(json={"today": "2026-06-01", "first_date": "2026-06-01",
                            "last_date": "2027-06-01", "scenario": SCENARIO})

    def to_sandbox(route):
        headers = {k: v for k, v in route.request.headers.items() if k.lower() != "x-scenario-id"}
        route.continue_(headers=headers)

    page.route("**/api/events", on_event)
    page.route("**/api/config", on_config)
    page.route("**/api/{airports,flights,bookings,quote,passenger}**", to_sandbox)
    open_app(page, live_server, f"?scenario={SCENARIO}")
    return events


def settle(page):
    page.evaluate("window.crm.whenIdle()")
    assert page.evaluate("window.crm.pendingEvents()") == 0


def test_search_events_are_normalized_and_in_order(page, recorded):
    home = region(page, "Find flights")
    pick_airport(page, home, "From", "jfk", "New York, NY (JFK)")
    home.get_by_label("To", exact=True).fill("fll")
    home.get_by_label("Departure date", exact=True).fill("7/7/2026")
    page.get_by_role("button", name="Open calendar (return)").click()
    page.get_by_role("dialog", name="Choose date").get_by_role("button", name="July 14, 2026").click()
    page.get_by_role("button", name="Search flights").click()
    number = select_flight(page, "Select your departing flight")
    settle(page)

    assert [(e["action"], e["target"], e.get("value")) for e in recorded] == [
        ("fill", "search-from", "JFK"),
        ("fill", "search-to", "FLL"),
        ("fill", "search-depart", "2026-07-07"),
        ("fill", "search-return", "2026-07-14"),
        ("click", "search-submit", None),
        ("fill", "outward-flight", number),
    ]
    assert [e["seq"] for e in recorded] == list(range(1, 7))
    assert len({e["page"] for e in recorded}) == 1
    assert recorded[4]["fields"] == {
        "trip-type": "return", "search-from": "JFK", "search-to": "FLL",
        "search-depart": "2026-07-07", "search-return": "2026-07-14",
    }


def test_one_way_leaves_out_the_return_date(page, recorded):
    fill_search(page, depart="2026-07-07", back=None)
    page.get_by_role("button", name="Search flights").click()
    settle(page)
    assert recorded[0]["target"] == "trip-type" and recorded[0]["value"] == "oneway"
    assert recorded[-1]["fields"] == {"trip-type": "oneway", "search-from": "JFK",
                                      "search-to": "FLL", "search-depart": "2026-07-07"}


def test_nav_clicks_and_find_booking(page, recorded):
    page.get_by_role("link", name="Find booking").click()
    page.get_by_role("textbox", name="Confirmation code").fill(" zzzzz9 ")
    page.get_by_role("textbox", name="Confirmation code").press("Enter")
    expect(page.get_by_role("alert").filter(has_text="No booking found")).to_be_visible()
    settle(page)
    assert [(e["action"], e["target"]) for e in recorded] == [
        ("click", "nav-find-booking"), ("fill", "find-code"), ("click", "find-submit")]
    assert recorded[0]["fields"] == {}
    assert recorded[1]["value"] == "zzzzz9"
    assert recorded[2]["fields"] == {"find-code": "zzzzz9"}


def test_passenger_and_card_values_are_normalized(page, recorded):
    search_flights(page, back=None)
    select_flight(page, "Select your departing flight")
    page.get_by_role("button", name="Checkout").click()
    fill_passenger(region(page, "Passenger details"), first="  Bill ", dob="04/20/2003")
    page.get_by_role("button", name="Save", exact=True).click()
    card = region(page, "Payment").get_by_label("Card number")
    card.fill("4111 1111-1111 1111")
    card.press("Tab")
    settle(page)
    fills = {e["target"]: e["value"] for e in recorded if e["action"] == "fill"}
    assert fills["passenger-title"] == "Mr"
    assert fills["passenger-firstname"] == "Bill"
    assert fills["passenger-dob"] == "2003-04-20"
    assert fills["payment-card-number"] == "4111111111111111"
    save = next(e for e in recorded if e["target"] == "passenger-save")
    assert save["fields"]["passenger-dob"] == "2003-04-20"
    assert save["fields"]["passenger-gender"] == "Male"


def test_no_events_without_a_scenario(app_page):
    posted = []
    app_page.on("request", lambda r: "/api/events" in r.url and posted.append(r.url))
    app_page.get_by_role("link", name="Help").click()
    expect(app_page.get_by_role("heading", name="Help")).to_be_visible()
    app_page.evaluate("window.crm.whenIdle()")
    assert posted == []
