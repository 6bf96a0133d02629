"""Browser-test fixtures: the app opened at Home, and bookings made through the API for tests
that start from an existing booking."""
from __future__ import annotations

import pytest

from .ui import open_app

PASSENGER = {
    "title": "Mr", "first_name": "Bill", "last_name": "Correa", "email": "bill.correa@example.com",
    "gender": "Male", "date_of_birth": "2003-04-20",
}
PAYMENT = {"card_number": "4111111111111111", "expiry": "04/29", "security_code": "153",
           "name_on_card": "Bill Correa"}


@pytest.fixture
def app_page(page, live_server):
    """The page at Home, ready for input."""
    open_app(page, live_server)
    return page


@pytest.fixture
def make_booking(live_app):
    """Books a JFK-FLL return trip (7-14 July 2026) in the sandbox; returns the booking JSON."""
    client = live_app.test_client()

    def make(**passenger):
        found = client.get("/api/flights/search?from=JFK&to=FLL&date=2026-07-07&return=2026-07-14").json
        payload = {
            "outward_flight_id": found["flights"][0]["id"],
            "return_flight_id": found["return_flights"][0]["id"],
            "passenger": {**PASSENGER, **passenger},
            "payment": PAYMENT,
        }
        response = client.post("/api/bookings", json=payload)
        assert response.status_code == 201, response.json
        return response.json["booking"]

    return make


@pytest.fixture
def cancel_via_api(live_app):
    client = live_app.test_client()

    def cancel(code):
        response = client.post(f"/api/bookings/{code}/cancel", json={"confirmation_code": code})
        assert response.status_code == 200, response.json

    return cancel


@pytest.fixture
def stored_bookings(live_app):
    """A snapshot of every stored booking row: equal before and after means nothing was written."""
    from tests.api.helpers import db_rows

    return lambda: db_rows(live_app)
