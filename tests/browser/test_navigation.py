"""The navigation marks the section on screen (aria-current), and a cancelled booking says so."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .ui import open_booking, open_cancel_dialog, region, search_flights

pytestmark = pytest.mark.browser


def current_link(page):
    return page.get_by_role("navigation", name="Main").locator("[aria-current=page]")


def test_the_navigation_shows_the_current_page(app_page, make_booking):
    expect(current_link(app_page)).to_have_text("Home")
    search_flights(app_page)
    expect(current_link(app_page)).to_have_text("Home")  # results belong to the booking flow of Home
    app_page.get_by_role("link", name="Help").click()
    expect(current_link(app_page)).to_have_text("Help")
    code = make_booking()["code"]
    open_booking(app_page, code)
    expect(current_link(app_page)).to_have_text("Find booking")
    expect(current_link(app_page)).to_have_count(1)


def test_a_cancelled_booking_shows_a_notice(app_page, make_booking, cancel_via_api):
    code = make_booking()["code"]
    dialog = open_cancel_dialog(app_page, code)
    booking = region(app_page, f"Booking {code}")
    expect(booking.get_by_text("This booking was cancelled")).to_be_hidden()
    dialog.get_by_label("Confirmation code").fill(code)
    dialog.get_by_role("button", name="Confirm cancellation").click()
    notice = booking.get_by_role("status").filter(has_text="This booking was cancelled")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("can no longer be changed")
    other = make_booking()["code"]
    cancel_via_api(other)
    open_booking(app_page, other)  # opened when already cancelled
    expect(region(app_page, f"Booking {other}").get_by_text("This booking was cancelled")).to_be_visible()
