"""The datepicker popup never stays over the next screen: it closes when its form is submitted
(Enter) and when the screen changes, Escape closes it wherever focus is, and opening it with the
calendar button moves focus into it."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .ui import fill_search, region

pytestmark = pytest.mark.browser


def picker(page):
    return page.get_by_role("dialog", name="Choose date")


def test_opening_with_the_button_moves_focus_to_the_day(app_page):
    app_page.get_by_role("button", name="Open calendar (departure)").click()
    expect(picker(app_page).get_by_role("button", name="June 1, 2026")).to_be_focused()  # today
    app_page.keyboard.press("Escape")
    region(app_page, "Find flights").get_by_label("Departure date", exact=True).fill("07/09/2026")
    app_page.get_by_role("button", name="Open calendar (departure)").click()
    expect(picker(app_page).get_by_role("button", name="July 9, 2026")).to_be_focused()  # the chosen day
    app_page.keyboard.press("Enter")  # picks the focused day
    expect(picker(app_page)).to_be_hidden()
    expect(region(app_page, "Find flights").get_by_label("Departure date", exact=True)).to_have_value("07/09/2026")


def test_escape_closes_it_with_focus_on_the_calendar_button(app_page):
    opener = app_page.get_by_role("button", name="Open calendar (departure)")
    opener.click()
    expect(picker(app_page)).to_be_visible()
    opener.focus()
    app_page.keyboard.press("Escape")
    expect(picker(app_page)).to_be_hidden()
    expect(opener).to_be_focused()


def test_submitting_the_form_with_enter_closes_it(app_page):
    fill_search(app_page)
    home = region(app_page, "Find flights")
    app_page.get_by_role("button", name="Open calendar (return)").click()
    expect(picker(app_page)).to_be_visible()
    home.get_by_label("Return date", exact=True).click()  # back into its own field: it stays open
    expect(picker(app_page)).to_be_visible()
    home.get_by_label("Return date", exact=True).press("Enter")
    expect(app_page.get_by_role("heading", name="Select your departing flight")).to_be_visible()
    expect(picker(app_page)).to_be_hidden()
    expect(app_page.get_by_role("button", name="July 14, 2026")).to_have_count(0)


def test_a_screen_change_closes_it(app_page):
    app_page.get_by_role("link", name="Find booking").click()
    app_page.get_by_role("link", name="Home").click()
    app_page.get_by_role("button", name="Open calendar (departure)").click()
    expect(picker(app_page)).to_be_visible()
    app_page.go_back()  # the browser's Back button changes the screen without a click on the page
    expect(app_page.get_by_role("heading", name="Find booking")).to_be_visible()
    expect(picker(app_page)).to_be_hidden()
