"""A double click on a submit button sends one request: the button is disabled while its request
is in flight, and each submit carries one Idempotency-Key."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .ui import fill_passenger, fill_payment, open_booking, open_cancel_dialog, region, to_passenger_details

pytestmark = pytest.mark.browser


def writes(page) -> list:
    """The page's write requests (method, path, Idempotency-Key), as they are sent."""
    sent = []
    page.on("request", lambda r: r.method != "GET" and "/api/events" not in r.url and sent.append(
        (r.method, r.url.split("?")[0].split("/api/", 1)[1], r.headers.get("idempotency-key"))))
    return sent


def test_double_clicking_book_flight_makes_one_booking(app_page, stored_bookings):
    fill_passenger(to_passenger_details(app_page))
    app_page.get_by_role("button", name="Save", exact=True).click()
    fill_payment(app_page)
    before = len(stored_bookings()["bookings"])
    sent = writes(app_page)
    app_page.get_by_role("button", name="Book flight").dblclick()
    expect(app_page.get_by_role("heading", name="Booking confirmed")).to_be_visible()
    app_page.evaluate("window.crm.whenIdle()")
    assert len(stored_bookings()["bookings"]) == before + 1
    assert len(sent) == 1 and sent[0][:2] == ("POST", "bookings")
    assert sent[0][2] and len(sent[0][2]) >= 16


def test_each_submit_sends_its_own_key(app_page, make_booking):
    code = make_booking()["code"]
    open_booking(app_page, code)
    app_page.get_by_role("button", name="Modify booking").click()
    details = app_page.get_by_role("form", name="Passenger details")
    sent = writes(app_page)
    for name in ("Ann", "Eve"):
        details.get_by_label("First name").fill(name)
        details.get_by_role("button", name="Save", exact=True).dblclick()
        expect(app_page.get_by_text("Passenger details saved")).to_be_visible()
        app_page.evaluate("window.crm.whenIdle()")
    assert [(method, path) for method, path, _ in sent] == [("PATCH", f"bookings/{code}/passenger")] * 2
    assert len({key for _, _, key in sent}) == 2


def test_double_clicking_confirm_cancellation_cancels_once(app_page, make_booking):
    code = make_booking()["code"]
    dialog = open_cancel_dialog(app_page, code)
    dialog.get_by_label("Confirmation code").fill(code)
    sent = writes(app_page)
    dialog.get_by_role("button", name="Confirm cancellation").dblclick()
    expect(region(app_page, f"Booking {code}").get_by_text("Cancelled", exact=True)).to_be_visible()
    app_page.evaluate("window.crm.whenIdle()")
    assert len(sent) == 1
    expect(app_page.get_by_role("alert").filter(has_text="already cancelled")).to_have_count(0)
