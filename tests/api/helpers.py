"""Helpers for API tests: a booking payload that is valid, and a snapshot of the stored bookings."""
from __future__ import annotations

from sqlalchemy import text

BOOKING_TABLES = ("bookings", "segments", "passengers", "payments")

PASSENGER = {
    "title": "Mr", "first_name": "Bill", "last_name": "Correa", "email": "bill.correa@example.com",
    "gender": "Male", "date_of_birth": "2003-04-20",
}
PAYMENT = {"card_number": "4111 1111 1111 1111", "expiry": "04/29", "security_code": "153",
           "name_on_card": "Bill Correa"}


def db_rows(app) -> dict[str, list[tuple]]:
    """Every row of the booking tables: equal before and after means nothing was written."""
    with app.extensions["engine"].connect() as connection:
        return {table: connection.execute(text(f"SELECT * FROM {table} ORDER BY id")).all()
                for table in BOOKING_TABLES}


def search(client, origin="JFK", destination="FLL", date="2026-07-07", back=None) -> dict:
    query = f"/api/flights/search?from={origin}&to={destination}&date={date}"
    response = client.get(query + (f"&return={back}" if back else ""))
    assert response.status_code == 200, response.json
    return response.json


def booking_payload(client, back="2026-07-14", **overrides) -> dict:
    found = search(client, back=back)
    payload = {
        "outward_flight_id": found["flights"][0]["id"],
        "return_flight_id": found["return_flights"][-1]["id"] if back else None,
        "passenger": dict(PASSENGER),
        "payment": dict(PAYMENT),
    }
    payload.update(overrides)
    return payload
