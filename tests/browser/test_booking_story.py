"""The whole life of a booking through the UI: book, find, change passenger, change flights, cancel."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .ui import fill_passenger, fill_payment, open_booking, region, search_flights, select_flight

pytestmark = pytest.mark.browser


def book_return_trip(page) -> tuple[str, str, str]:
    search_flights(page)
    outward = select_flight(page, "Select your departing flight", 1)
    back = select_flight(page, "Select your return flight", 2)
    page.get_by_role("button", name="Checkout").click()
    fill_passenger(region(page, "Passenger details"))
    page.get_by_role("button", name="Save", exact=True).click()
    pay = region(page, "Payment")
    expect(pay.get_by_text(outward)).not_to_have_count(0)
    expect(pay.get_by_text(back)).not_to_have_count(0)
    expect(pay.get_by_text("Taxes and fees")).to_be_visible()
    expect(pay.get_by_text(re.compile(r"^Total \$\d+\.\d{2}$"))).to_be_visible()
    fill_payment(page)
    page.get_by_role("button", name="Book flight").click()
    expect(page.get_by_role("heading", name="Booking confirmed")).to_be_visible()
    code = region(page, "Booking confirmed").get_by_text(re.compile(r"^Confirmation code")).inner_text().split()[-1]
    assert re.fullmatch(r"[A-Z0-9]{6}", code)
    return code, outward, back


def test_book_find_modify_change_flights_and_cancel(app_page):
    page = app_page
    code, outward, back = book_return_trip(page)

    open_booking(page, code)
    booking = region(page, f"Booking {code}")
    expect(booking.get_by_text("Confirmed", exact=True)).to_be_visible()
    expect(booking.get_by_text(f"Departing: {outward}")).to_be_visible()
    expect(booking.get_by_text(f"Return: {back}")).to_be_visible()
    expect(booking.get_by_text("Mr Bill Correa")).to_be_visible()
    expect(booking.get_by_text(re.compile(r"^Total \$\d+\.\d{2}$"))).to_be_visible()

    page.get_by_role("button", name="Modify booking").click()
    details = page.get_by_role("form", name="Passenger details")
    expect(details.get_by_label("First name")).to_have_value("Bill")
    details.get_by_label("First name").fill("William")
    details.get_by_label("Email address").fill("william.correa@example.com")
    details.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Passenger details saved")).to_be_visible()

    flights = region(page, "Flights")
    flights.get_by_role("button", name="Change flights").click()
    expect(flights.get_by_label("From", exact=True)).to_have_value("New York, NY (JFK)")
    expect(flights.get_by_label("Departure date", exact=True)).to_have_value("07/07/2026")
    flights.get_by_label("Departure date", exact=True).fill("08/04/2026")
    flights.get_by_label("Return date", exact=True).fill("08/11/2026")
    flights.get_by_role("button", name="Search flights").click()
    new_outward = select_flight(page, "Select your departing flight", 0)
    new_back = select_flight(page, "Select your return flight", 0)
    flights.get_by_role("button", name="Save flights").click()
    expect(page.get_by_text("Flights changed")).to_be_visible()
    expect(flights.get_by_text(f"Departing: {new_outward}")).to_contain_text("Aug 4, 2026")
    expect(flights.get_by_text(f"Return: {new_back}")).to_contain_text("Aug 11, 2026")

    page.get_by_role("button", name="Back to booking").click()
    expect(booking.get_by_text("Mr William Correa")).to_be_visible()
    expect(booking.get_by_text("william.correa@example.com")).to_be_visible()
    page.get_by_role("button", name="Cancel booking").click()
    dialog = page.get_by_role("dialog", name="Cancel booking")
    expect(dialog.get_by_text("Confirm cancellation by re-entering the booking confirmation code below")).to_be_visible()
    dialog.get_by_label("Confirmation code").fill(code)
    dialog.get_by_role("button", name="Confirm cancellation").click()
    expect(dialog).to_be_hidden()
    expect(booking.get_by_text("Cancelled", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Cancel booking")).to_be_disabled()
    expect(page.get_by_role("button", name="Modify booking")).to_be_disabled()

    open_booking(page, code)  # the cancellation is stored, not just shown
    expect(booking.get_by_text("Cancelled", exact=True)).to_be_visible()


def test_one_way_booking(app_page):
    page = app_page
    search_flights(page, back=None)
    select_flight(page, "Select your departing flight")
    page.get_by_role("button", name="Checkout").click()
    fill_passenger(region(page, "Passenger details"), title="Dr", first="Ada", last="Lovelace",
                   email="ada@example.com", gender="Female", dob="1990-12-10")
    page.get_by_role("button", name="Save", exact=True).click()
    fill_payment(page, name="Ada Lovelace")
    page.get_by_role("button", name="Book flight").click()
    expect(page.get_by_role("heading", name="Booking confirmed")).to_be_visible()
    page.get_by_role("button", name="View booking").click()
    booking = page.get_by_role("region", name=re.compile(r"^Booking [A-Z0-9]{6}$"))
    expect(booking.get_by_text("One way", exact=True)).to_be_visible()
    expect(booking.get_by_text("Dr Ada Lovelace")).to_be_visible()
    expect(booking.get_by_text(re.compile(r"^Departing:"))).to_have_count(1)
    expect(booking.get_by_text(re.compile(r"^Return:"))).to_have_count(0)
