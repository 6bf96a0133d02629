"""Helpers for API tests: a booking payload that is valid, and a snapshot of the stored bookings."""
from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

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


def at_once(url: str, requests: list[tuple[str, str, dict | None, dict]]) -> list[tuple[int, dict, str | None]]:
    """Send (method, path, body, headers) requests from threads released together, to race them;
    (status, JSON body, Idempotent-Replayed header) of each, in order."""
    barrier, results = threading.Barrier(len(requests)), [None] * len(requests)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def send(index, method, path, body, headers):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **headers})
        barrier.wait()
        try:
            with opener.open(request, timeout=60) as response:
                results[index] = (response.status, json.loads(response.read()),
                                  response.headers.get("Idempotent-Replayed"))
        except urllib.error.HTTPError as error:
            results[index] = (error.code, json.loads(error.read()), error.headers.get("Idempotent-Replayed"))

    threads = [threading.Thread(target=send, args=(i, *r)) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
