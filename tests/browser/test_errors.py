"""Every bad input of the UI contract shows the server's message in the page, and user text is
shown as text."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .ui import (fill_passenger, fill_payment, fill_search, find_booking, open_app, open_booking,
                 open_cancel_dialog, pick_airport, region, to_passenger_details)

pytestmark = pytest.mark.browser


def alert_with(page, text):
    return page.get_by_role("alert").filter(has_text=text)


def test_unknown_airport(app_page):
    home = region(app_page, "Find flights")
    home.get_by_label("From", exact=True).fill("Atlantis")
    pick_airport(app_page, home, "To", "FLL", "Fort Lauderdale, FL (FLL)")
    home.get_by_label("Departure date", exact=True).fill("07/07/2026")
    home.get_by_label("Return date", exact=True).fill("07/14/2026")
    app_page.get_by_role("button", name="Search flights").click()
    expect(alert_with(app_page, "Unknown airport")).to_be_visible()
    expect(home.get_by_label("From", exact=True)).to_have_attribute("aria-invalid", "true")


def test_return_before_departure(app_page):
    fill_search(app_page, depart="07/14/2026", back="07/07/2026")
    app_page.get_by_role("button", name="Search flights").click()
    expect(alert_with(app_page, "Return date must not be before the departure date")).to_be_visible()


@pytest.mark.parametrize("depart", ["05/31/2026", "2027-06-02"])
def test_dates_outside_the_sellable_window(app_page, depart):
    fill_search(app_page, depart=depart, back=None)
    app_page.get_by_role("button", name="Search flights").click()
    expect(alert_with(app_page, "Departure date must be between 06/01/2026 and 06/01/2027")).to_be_visible()


def test_missing_passenger_fields(app_page, stored_bookings):
    details = to_passenger_details(app_page)
    details.get_by_label("Title").select_option("Ms")
    details.get_by_label("Last name").fill("Smith")
    before = stored_bookings()
    app_page.get_by_role("button", name="Save", exact=True).click()
    expect(alert_with(app_page, "First name is required")).to_be_visible()
    expect(alert_with(app_page, "Email address is required")).to_be_visible()
    expect(alert_with(app_page, "Date of birth is required")).to_be_visible()
    expect(alert_with(app_page, "Please correct")).to_be_visible()
    expect(app_page.get_by_role("heading", name="Payment")).to_be_hidden()
    assert stored_bookings() == before
    details.get_by_label("First name").fill("Ann")  # correcting a field takes its own error away
    expect(alert_with(app_page, "First name is required")).to_have_count(0)
    expect(details.get_by_label("First name")).not_to_have_attribute("aria-invalid", "true")
    expect(alert_with(app_page, "Email address is required")).to_be_visible()
    expect(details.get_by_label("Email address")).to_have_attribute("aria-invalid", "true")


@pytest.mark.parametrize("card, expiry, message", [
    ("4111 1111 1111 1112", "04/29", "Card number is not valid"),
    ("4111 1111 1111 1111", "05/26", "Card has expired"),
])
def test_bad_card(app_page, stored_bookings, card, expiry, message):
    fill_passenger(to_passenger_details(app_page))
    app_page.get_by_role("button", name="Save", exact=True).click()
    fill_payment(app_page, card=card, expiry=expiry)
    before = stored_bookings()
    app_page.get_by_role("button", name="Book flight").click()
    expect(alert_with(app_page, message)).to_be_visible()
    expect(app_page.get_by_role("heading", name="Booking confirmed")).to_be_hidden()
    assert stored_bookings() == before


def test_unknown_confirmation_code(app_page):
    find_booking(app_page, "ZZZZZ9")
    expect(alert_with(app_page, "No booking found with confirmation code ZZZZZ9")).to_be_visible()


def test_cancel_code_mismatch_keeps_the_dialog_open(app_page, make_booking, stored_bookings):
    code = make_booking()["code"]
    before = stored_bookings()
    dialog = open_cancel_dialog(app_page, code)
    dialog.get_by_label("Confirmation code").fill("ABC123")
    dialog.get_by_role("button", name="Confirm cancellation").click()
    expect(dialog.get_by_role("alert").filter(
        has_text="The confirmation code does not match this booking")).to_be_visible()
    dialog.get_by_role("button", name="Close", exact=True).click()
    expect(dialog).to_be_hidden()
    expect(region(app_page, f"Booking {code}").get_by_text("Confirmed", exact=True)).to_be_visible()
    assert stored_bookings() == before


def test_cancelling_an_already_cancelled_booking(app_page, make_booking, cancel_via_api, stored_bookings):
    code = make_booking()["code"]
    dialog = open_cancel_dialog(app_page, code)
    cancel_via_api(code)  # cancelled elsewhere while this page still shows it as confirmed
    before = stored_bookings()
    dialog.get_by_label("Confirmation code").fill(code)
    dialog.get_by_role("button", name="Confirm cancellation").click()
    expect(dialog.get_by_role("alert").filter(has_text=f"Booking {code} is already cancelled")).to_be_visible()
    assert stored_bookings() == before


def test_names_are_shown_as_text(app_page, make_booking):
    dialogs = []
    app_page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    first = "<script>alert(1)</script>"
    code = make_booking(first_name=first, last_name="O'Brien<b>")["code"]
    open_booking(app_page, code)
    booking = region(app_page, f"Booking {code}")
    expect(booking.get_by_text(f"Mr {first} O'Brien<b>")).to_be_visible()
    app_page.get_by_role("button", name="Modify booking").click()
    expect(app_page.get_by_role("form", name="Passenger details").get_by_label("First name")).to_have_value(first)
    assert dialogs == []


def test_unknown_scenario_shows_a_banner(page, live_server):
    open_app(page, live_server, "?scenario=nosuchscenario")
    expect(page.get_by_role("alert").filter(has_text="Unknown scenario: nosuchscenario")).to_be_visible()


def test_the_search_form_shows_every_wrong_field_at_once(app_page):
    home = region(app_page, "Find flights")
    home.get_by_label("From", exact=True).fill("Atlantis")
    home.get_by_label("Departure date", exact=True).fill("13/45/2026")
    home.get_by_label("Return date", exact=True).fill("05/01/2026")
    app_page.get_by_role("button", name="Search flights").click()
    messages = ["Unknown airport: ATLANTIS", "Enter the arrival airport",
                "Departure date must be a date like MM/DD/YYYY or YYYY-MM-DD (got 13/45/2026)",
                "Return date must be between 06/01/2026 and 06/01/2027",
                "Please correct: From, To, Departure date, Return date"]
    for message in messages:
        expect(home.get_by_role("alert").filter(has_text=message)).to_have_count(1)
    expect(home.get_by_role("alert").filter(has_text=re.compile("."))).to_have_count(len(messages))
    for label in ("From", "To", "Departure date", "Return date"):
        expect(home.get_by_label(label, exact=True)).to_have_attribute("aria-invalid", "true")


def test_one_mistake_gets_one_message(app_page):
    fill_search(app_page, destination="New York, NY (JFK)")
    app_page.get_by_role("button", name="Search flights").click()
    home = region(app_page, "Find flights")
    expect(home.get_by_role("alert").filter(has_text="From and To must be different airports")).to_have_count(1)
    expect(home.get_by_role("alert").filter(has_text=re.compile("."))).to_have_count(1)


def test_empty_choices_and_an_old_birth_date_say_what_to_do(app_page):
    details = to_passenger_details(app_page)
    fill_passenger(details, dob="12/31/1899")
    details.get_by_label("Title").select_option("")
    app_page.get_by_role("button", name="Save", exact=True).click()
    expect(alert_with(app_page, "Choose a title")).to_be_visible()
    expect(alert_with(app_page, "Date of birth must be on or after 01/01/1900")).to_be_visible()
    expect(alert_with(app_page, "must be one of")).to_have_count(0)
    expect(alert_with(app_page, "must be a past date")).to_have_count(0)


def test_an_empty_card_number_is_required_not_invalid(app_page, stored_bookings):
    fill_passenger(to_passenger_details(app_page))
    app_page.get_by_role("button", name="Save", exact=True).click()
    fill_payment(app_page, card="")
    before = stored_bookings()
    app_page.get_by_role("button", name="Book flight").click()
    expect(alert_with(app_page, "Card number is required")).to_be_visible()
    expect(alert_with(app_page, "not valid")).to_have_count(0)
    assert stored_bookings() == before


def test_an_empty_cancel_code_asks_for_it(app_page, make_booking, stored_bookings):
    code = make_booking()["code"]
    before = stored_bookings()
    dialog = open_cancel_dialog(app_page, code)
    dialog.get_by_role("button", name="Confirm cancellation").click()
    expect(dialog.get_by_role("alert").filter(has_text="Confirmation code is required")).to_have_count(1)
    expect(dialog.get_by_role("alert").filter(has_text="does not match")).to_have_count(0)
    assert stored_bookings() == before


def test_the_paper_suites_title_and_gender_radios_show_and_clear_their_errors(page, live_app, live_server):
    """In a `paper` scenario Title and Gender are radio groups: left unchosen, each group says what
    to do next to itself and is marked invalid; choosing an option clears its mark and message."""
    scenario = live_app.test_client().get("/generate-random-scenario?task=TASK_BOOK_FLIGHT&seed=2&suite=paper").json
    open_app(page, live_server, f"?scenario={scenario['id']}")
    details = to_passenger_details(page)
    for label, value in (("First name", "Bill"), ("Last name", "Correa"), ("Email address", "bill@example.com"),
                         ("Date of birth", "04/20/2003")):
        details.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name="Save", exact=True).click()
    title, gender = details.get_by_role("group", name="Title"), details.get_by_role("group", name="Gender")
    expect(title.get_by_role("alert")).to_have_text("Choose a title")
    expect(gender.get_by_role("alert")).to_have_text("Choose a gender")
    expect(title).to_have_attribute("aria-invalid", "true")
    title.get_by_role("radio", name="Ms", exact=True).check()
    expect(title).not_to_have_attribute("aria-invalid", "true")
    expect(title.get_by_text("Choose a title")).to_have_count(0)
    expect(gender).to_have_attribute("aria-invalid", "true")
