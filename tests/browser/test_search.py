"""Home and results: return and one-way searches, the airport autocomplete and the datepicker."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .ui import fill_search, flight_table, region, search_flights, to_passenger_details

pytestmark = pytest.mark.browser

TIME = re.compile(r"^\d{1,2}:\d{2}(am|pm)$")
PRICE = re.compile(r"^\$\d+\.\d{2}$")


def test_return_search_lists_both_legs(app_page):
    search_flights(app_page)
    outward = flight_table(app_page, "Select your departing flight")
    back = flight_table(app_page, "Select your return flight")
    expect(outward.get_by_role("row")).not_to_have_count(0)
    rows = outward.get_by_role("row")
    assert 5 <= rows.count() <= 9  # header + 4..8 flights
    cells = rows.nth(1).get_by_role("cell")
    expect(cells.nth(1)).to_have_text(TIME)
    expect(cells.nth(2)).to_have_text("JFK")
    expect(cells.nth(4)).to_have_text("FLL")
    expect(cells.nth(7)).to_have_text(PRICE)
    expect(back.get_by_role("row").nth(1).get_by_role("cell").nth(2)).to_have_text("FLL")
    expect(app_page.get_by_text("Tue, Jul 7, 2026")).to_be_visible()


def test_one_way_search_lists_departing_flights_only(app_page):
    search_flights(app_page, back=None)
    expect(flight_table(app_page, "Select your departing flight")).to_be_visible()
    expect(app_page.get_by_role("heading", name="Select your return flight")).to_have_count(0)


def test_checkout_needs_selected_flights(app_page):
    search_flights(app_page)
    app_page.get_by_role("button", name="Checkout").click()
    expect(app_page.get_by_text("Select a departing flight", exact=True)).to_be_visible()


def test_autocomplete_by_keyboard_and_exact_code(app_page):
    home = region(app_page, "Find flights")
    origin = home.get_by_label("From", exact=True)
    origin.fill("new york")
    expect(app_page.get_by_role("option", name="New York, NY (JFK)")).to_be_visible()
    origin.press("ArrowDown")
    origin.press("Enter")
    expect(origin).to_have_value(re.compile(r"^New York, NY \((JFK|LGA)\)$"))
    destination = home.get_by_label("To", exact=True)
    destination.fill("lax")
    destination.press("Tab")  # leaving the field with an exact code commits it
    expect(destination).to_have_value("Los Angeles, CA (LAX)")


def test_datepicker_by_clicking(app_page):
    home = region(app_page, "Find flights")
    app_page.get_by_role("button", name="Open calendar (departure)").click()
    picker = app_page.get_by_role("dialog", name="Choose date")
    expect(picker.get_by_text("June 2026")).to_be_visible()
    expect(picker.get_by_role("button", name="Previous month")).to_be_disabled()
    expect(picker.get_by_role("button", name="May 31, 2026")).to_have_count(0)
    picker.get_by_role("button", name="Next month").click()
    expect(picker.get_by_text("July 2026")).to_be_visible()
    picker.get_by_role("button", name="July 9, 2026").click()
    expect(picker).to_be_hidden()
    expect(home.get_by_label("Departure date", exact=True)).to_have_value("07/09/2026")
    # The return calendar opens at the departure month.
    app_page.get_by_role("button", name="Open calendar (return)").click()
    expect(picker.get_by_text("July 2026")).to_be_visible()
    picker.get_by_role("button", name="July 16, 2026").click()
    expect(home.get_by_label("Return date", exact=True)).to_have_value("07/16/2026")


def test_datepicker_disables_days_outside_the_window(app_page):
    app_page.get_by_role("button", name="Open calendar (departure)").click()
    picker = app_page.get_by_role("dialog", name="Choose date")
    for _ in range(12):
        picker.get_by_role("button", name="Next month").click()
    expect(picker.get_by_text("June 2027")).to_be_visible()
    expect(picker.get_by_role("button", name="June 1, 2027")).to_be_enabled()
    expect(picker.get_by_role("button", name="June 2, 2027")).to_be_disabled()
    expect(picker.get_by_role("button", name="Next month")).to_be_disabled()


def test_typed_us_and_iso_dates_are_accepted(app_page):
    fill_search(app_page, depart="7/7/2026", back="2026-07-14")
    home = region(app_page, "Find flights")
    home.get_by_label("Return date", exact=True).press("Tab")
    expect(home.get_by_label("Departure date", exact=True)).to_have_value("07/07/2026")
    expect(home.get_by_label("Return date", exact=True)).to_have_value("07/14/2026")
    app_page.get_by_role("button", name="Search flights").click()
    expect(app_page.get_by_text("Tue, Jul 14, 2026")).to_be_visible()


def test_date_of_birth_calendar_jumps_by_year(app_page):
    details = to_passenger_details(app_page)
    app_page.get_by_role("button", name="Open calendar (birth)").click()
    picker = app_page.get_by_role("dialog", name="Choose date")
    picker.get_by_label("Year", exact=True).select_option("1985")
    picker.get_by_label("Month", exact=True).select_option("March")
    picker.get_by_role("button", name="March 14, 1985").click()
    expect(details.get_by_label("Date of birth", exact=True)).to_have_value("03/14/1985")
