"""Steps a person takes in the UI, found only by visible labels and roles (never by test ids or
CSS): the browser tests prove the label contract."""
from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def open_app(page: Page, base_url: str, query: str = "") -> None:
    page.goto(f"{base_url}/{query}")
    page.wait_for_function("() => window.crm && window.crm.ready === true")


def region(page: Page, name: str):
    """A screen or section, by its heading."""
    return page.get_by_role("region", name=name, exact=True)


def pick_airport(page: Page, scope, label: str, typed: str, option: str) -> None:
    field = scope.get_by_label(label, exact=True)
    field.fill(typed)
    page.get_by_role("option", name=option).click()
    expect(field).to_have_value(option)


def fill_search(page: Page, origin="New York, NY (JFK)", destination="Fort Lauderdale, FL (FLL)",
                depart="07/07/2026", back="07/14/2026") -> None:
    """Home: fills the search form (one way when `back` is None)."""
    home = region(page, "Find flights")
    home.get_by_label("One way" if back is None else "Return", exact=True).check()
    pick_airport(page, home, "From", origin[-4:-1], origin)
    pick_airport(page, home, "To", destination[-4:-1], destination)
    home.get_by_label("Departure date", exact=True).fill(depart)
    if back is not None:
        home.get_by_label("Return date", exact=True).fill(back)


def search_flights(page: Page, **kwargs) -> None:
    fill_search(page, **kwargs)
    page.get_by_role("button", name="Search flights").click()
    expect(page.get_by_role("heading", name="Select your departing flight")).to_be_visible()


def flight_table(page: Page, heading: str):
    return page.get_by_role("table", name=heading)


def select_flight(page: Page, heading: str, index: int = 0) -> str:
    """Selects a row's radio in the table under `heading`; returns its flight number."""
    radio = flight_table(page, heading).get_by_role("radio", name=re.compile(r"^Select CR\d+")).nth(index)
    radio.check()
    return re.search(r"CR\d+", radio.get_attribute("aria-label") or "").group(0)


def to_passenger_details(page: Page):
    """Searches the default return trip, selects the first flights, checks out; returns the
    Passenger details screen."""
    search_flights(page)
    select_flight(page, "Select your departing flight")
    select_flight(page, "Select your return flight")
    page.get_by_role("button", name="Checkout").click()
    return region(page, "Passenger details")


def choose(scope, label: str, option: str) -> None:
    """Title or Gender: a select (the `full` suite's page), or radio buttons grouped under a legend
    (the `paper` suite's)."""
    group = scope.get_by_role("group", name=label, exact=True)
    if group.count():
        group.get_by_role("radio", name=option, exact=True).check()
    else:
        scope.get_by_label(label).select_option(option)


def fill_passenger(scope, title="Mr", first="Bill", last="Correa", email="bill.correa@example.com",
                   gender="Male", dob="04/20/2003") -> None:
    choose(scope, "Title", title)
    scope.get_by_label("First name").fill(first)
    scope.get_by_label("Last name").fill(last)
    scope.get_by_label("Email address").fill(email)
    choose(scope, "Gender", gender)
    scope.get_by_label("Date of birth", exact=True).fill(dob)


def fill_payment(page: Page, card="4111 1111 1111 1111", expiry="04/29", code="153", name="Bill Correa"):
    pay = region(page, "Payment")
    pay.get_by_label("Card number").fill(card)
    pay.get_by_label("Expiry").fill(expiry)
    pay.get_by_label("Security code").fill(code)
    pay.get_by_label("Name on card").fill(name)


def find_booking(page: Page, code: str) -> None:
    page.get_by_role("link", name="Find booking").click()
    page.get_by_role("textbox", name="Confirmation code").fill(code)
    page.get_by_role("button", name="Search", exact=True).click()


def open_booking(page: Page, code: str) -> None:
    find_booking(page, code)
    expect(page.get_by_role("heading", name=f"Booking {code}")).to_be_visible()


def us(iso: str) -> str:
    year, month, day = iso.split("-")
    return f"{month}/{day}/{year}"


def search_and_choose(page: Page, scope, flight: dict) -> None:
    """Searches a scenario's return trip in `scope` (Home or the change-flights panel) and selects
    its flights by number."""
    for label, code in (("From", flight["from"]), ("To", flight["to"])):
        scope.get_by_label(label, exact=True).fill(code.lower())
        scope.get_by_label(label, exact=True).press("Tab")
    scope.get_by_label("Departure date", exact=True).fill(us(flight["departure"]))
    scope.get_by_label("Return date", exact=True).fill(flight["return"])
    scope.get_by_role("button", name="Search flights").click()
    page.get_by_role("radio", name=f"Select {flight['outward-flight-number']} ").check()
    page.get_by_role("radio", name=f"Select {flight['return-flight-number']} ").check()


def book_in_ui(page: Page, details: dict) -> None:
    """Books a return-trip book-flight scenario's details through the UI, up to the confirmation."""
    search_and_choose(page, region(page, "Find flights"), details["flight"])
    page.get_by_role("button", name="Checkout").click()
    person, card = details["passenger"], details["payment-details"]
    fill_passenger(region(page, "Passenger details"), title=person["title"], first=person["firstname"],
                   last=person["lastname"], email=person["email"], gender=person["gender"],
                   dob=us(person["dob"]))
    page.get_by_role("button", name="Save", exact=True).click()
    fill_payment(page, card=card["card-number"], expiry=card["expiry"], code=card["security_code"],
                 name=card["name-on-card"])
    page.get_by_role("button", name="Book flight").click()
    expect(page.get_by_role("heading", name="Booking confirmed")).to_be_visible()


def open_cancel_dialog(page: Page, code: str):
    """Opens booking `code` and its Cancel booking dialog; returns the dialog."""
    open_booking(page, code)
    page.get_by_role("button", name="Cancel booking").click()
    return page.get_by_role("dialog", name="Cancel booking")
