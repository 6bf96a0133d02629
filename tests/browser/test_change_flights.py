"""Changing a booking's flights: Save flights is offered only after a search, the booking's current
flights are marked in the results, and the fare difference is shown before saving."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .ui import flight_table, open_booking, region

pytestmark = pytest.mark.browser


def cents(amount: str) -> int:
    return int(amount.replace(".", "").replace("+", ""))


def test_change_flights_marks_current_flights_and_shows_the_fare_difference(app_page, make_booking, live_app):
    booking = make_booking()
    code, current = booking["code"], {f["direction"]: f for f in booking["flights"]}
    open_booking(app_page, code)
    app_page.get_by_role("button", name="Modify booking").click()
    flights = region(app_page, "Flights")
    flights.get_by_role("button", name="Change flights").click()
    expect(flights.get_by_role("button", name="Save flights")).to_be_hidden()  # nothing to save before a search

    flights.get_by_role("button", name="Search flights").click()  # the booking's own dates
    outward = flight_table(app_page, "Select your departing flight")
    back = flight_table(app_page, "Select your return flight")
    for table, flight in ((outward, current["outward"]), (back, current["return"])):
        marked = table.get_by_role("row").filter(has_text="Current flight")
        expect(marked).to_have_count(1)
        expect(marked).to_contain_text(flight["number"])
        expect(table.get_by_role("radio", name=f"Select {flight['number']} departing "
                                 f"{flight['departure_time']} (current flight)")).not_to_be_checked()
    expect(flights.get_by_role("button", name="Save flights")).to_be_visible()

    others = {name: table.get_by_role("radio", name=re.compile(r"^Select CR\d+ departing \S+$")).first
              for name, table in (("outward", outward), ("return", back))}
    others["outward"].check()
    expect(flights.get_by_text(re.compile("^Fare difference"))).to_have_count(0)  # the return is not chosen yet
    others["return"].check()
    numbers = {name: re.search(r"CR\d+", radio.get_attribute("aria-label")).group(0) for name, radio in others.items()}
    api = live_app.test_client()
    found = api.get("/api/flights/search?from=JFK&to=FLL&date=2026-07-07&return=2026-07-14").json
    ids = {name: next(f["id"] for f in found[key] if f["number"] == numbers[name])
           for name, key in (("outward", "flights"), ("return", "return_flights"))}
    quote = api.get(f"/api/bookings/{code}/flights/quote?outward={ids['outward']}&return={ids['return']}").json
    difference = cents(quote["total"]) - cents(booking["total"])
    sign = "+" if difference > 0 else "-" if difference < 0 else ""
    shown = f"{sign}${abs(difference) // 100}.{abs(difference) % 100:02d}"
    expect(flights.get_by_role("status").filter(has_text="Fare difference")).to_have_text(
        f"Fare difference: {shown} (new total ${quote['total']}, now ${booking['total']})")

    flights.get_by_role("button", name="Save flights").click()
    expect(flights.get_by_text("Flights changed", exact=True)).to_be_visible()
    expect(flights.get_by_text(f"Departing: {numbers['outward']}")).to_be_visible()
    expect(flights.get_by_role("button", name="Save flights")).to_be_hidden()
    saved = api.get(f"/api/bookings/{code}").json["booking"]
    assert saved["total"] == quote["total"]
