"""Writes that happen once: the Idempotency-Key header of book, cancel, change passenger and
change flights. A retry answers the first result again and writes nothing; a different request
with the same key is a 409; two requests with one key at the same moment make one write."""
from __future__ import annotations

import pytest

from crm_app.http_client import http_sender
from crm_app.server import BackgroundServer

from .helpers import at_once, booking_payload, db_rows, search

KEY = "5f0c2a7e-4b1d-4f7a-9a51-3c2d1e0f9b88"


def count_bookings(app) -> int:
    return len(db_rows(app)["bookings"])


def test_a_retried_booking_answers_the_first_booking_and_books_once(app, client):
    payload = booking_payload(client)
    first = client.post("/api/bookings", json=payload, headers={"Idempotency-Key": KEY})
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    before = db_rows(app)
    again = client.post("/api/bookings", json=payload, headers={"Idempotency-Key": KEY})
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json
    assert db_rows(app) == before


def test_the_same_body_in_another_layout_is_the_same_request(app, client):
    payload = booking_payload(client)
    first = client.post("/api/bookings", json=payload, headers={"Idempotency-Key": KEY})
    reordered = dict(reversed(list(payload.items())))
    again = client.post("/api/bookings", json=reordered, headers={"Idempotency-Key": KEY})
    assert again.json == first.json and again.headers["Idempotent-Replayed"] == "true"


def test_the_same_key_with_another_body_is_a_409_and_writes_nothing(app, client):
    payload = booking_payload(client)
    client.post("/api/bookings", json=payload, headers={"Idempotency-Key": KEY})
    before = db_rows(app)
    other = client.post("/api/bookings", json=booking_payload(client, back=None), headers={"Idempotency-Key": KEY})
    assert other.status_code == 409
    assert other.json == {"error": "This Idempotency-Key was already used for a different request; send a new key"}
    assert db_rows(app) == before


def test_a_refused_request_stores_no_key_so_its_correction_goes_through(app, client):
    payload = booking_payload(client)
    wrong = client.post("/api/bookings", json={**payload, "payment": {}}, headers={"Idempotency-Key": KEY})
    assert wrong.status_code == 400
    fixed = client.post("/api/bookings", json=payload, headers={"Idempotency-Key": KEY})
    assert fixed.status_code == 201 and "Idempotent-Replayed" not in fixed.headers


def test_without_a_key_every_request_writes(app, client):
    payload = booking_payload(client)
    codes = {client.post("/api/bookings", json=payload).json["booking"]["code"] for _ in range(2)}
    assert len(codes) == 2


def test_a_retried_cancel_answers_the_cancelled_booking_instead_of_a_409(app, client, booked):
    route, body = f"/api/bookings/{booked['code']}/cancel", {"confirmation_code": booked["code"]}
    first = client.post(route, json=body, headers={"Idempotency-Key": KEY})
    again = client.post(route, json=body, headers={"Idempotency-Key": KEY})
    assert first.status_code == again.status_code == 200
    assert again.json == first.json and again.json["booking"]["status"] == "Cancelled"
    assert client.post(route, json=body).status_code == 409  # a new cancel, without the key


def test_retried_passenger_and_flight_changes_write_once(app, client, booked):
    code = booked["code"]
    change = client.patch(f"/api/bookings/{code}/passenger", json={"first_name": "Ann"}, headers={"Idempotency-Key": "p1"})
    later = client.patch(f"/api/bookings/{code}/passenger", json={"first_name": "Eve"})
    assert later.json["booking"]["passenger"]["first_name"] == "Eve"
    before = db_rows(app)
    replay = client.patch(f"/api/bookings/{code}/passenger", json={"first_name": "Ann"}, headers={"Idempotency-Key": "p1"})
    assert replay.json == change.json  # the first answer, and the later change stays
    assert client.get(f"/api/bookings/{code}").json["booking"]["passenger"]["first_name"] == "Eve"
    found = search(client, date="2026-07-08", back="2026-07-15")
    ids = {"outward_flight_id": found["flights"][0]["id"], "return_flight_id": found["return_flights"][0]["id"]}
    moved = client.put(f"/api/bookings/{code}/flights", json=ids, headers={"Idempotency-Key": "f1"})
    assert moved.status_code == 200
    assert client.put(f"/api/bookings/{code}/flights", json=ids, headers={"Idempotency-Key": "f1"}).json == moved.json
    assert db_rows(app)["segments"] != before["segments"]
    assert len(db_rows(app)["segments"]) == len(before["segments"])


def test_keys_are_scoped_to_the_dataset(app, client):
    scenario = client.get("/generate-random-scenario?task=TASK_BOOK_FLIGHT&seed=3").json["id"]
    payload = booking_payload(client)
    sandbox = client.post("/api/bookings", json=payload, headers={"Idempotency-Key": KEY})
    inside = client.post(f"/api/bookings?scenario={scenario}", json=payload, headers={"Idempotency-Key": KEY})
    assert sandbox.status_code == inside.status_code == 201
    assert "Idempotent-Replayed" not in inside.headers
    assert client.get(f"/api/bookings/{inside.json['booking']['code']}?scenario={scenario}").status_code == 200
    reset = client.get(f"/reset-scenario?scenario={scenario}")  # a reset forgets the scenario's keys
    assert reset.status_code == 200
    after = client.post(f"/api/bookings?scenario={scenario}", json=payload, headers={"Idempotency-Key": KEY})
    assert after.status_code == 201 and "Idempotent-Replayed" not in after.headers


@pytest.mark.parametrize("key", ["", "has space", "é", "x" * 256])
def test_a_malformed_key_is_a_400(app, client, key):
    before = db_rows(app)
    response = client.post("/api/bookings", json=booking_payload(client), headers={"Idempotency-Key": key})
    assert response.status_code == 400
    assert response.json == {"error": "Idempotency-Key must be 1 to 255 visible ASCII characters"}
    assert db_rows(app) == before


def test_two_concurrent_bookings_with_one_key_make_one_booking(app, client):
    payload = booking_payload(client)
    before = count_bookings(app)
    with BackgroundServer(app) as server:
        results = at_once(server.url, [("POST", "/api/bookings", payload, {"Idempotency-Key": KEY})] * 4)
    assert [status for status, _, _ in results] == [201] * 4
    assert len({body["booking"]["code"] for _, body, _ in results}) == 1
    assert sorted(str(replayed) for _, _, replayed in results) == ["None", "true", "true", "true"]
    assert count_bookings(app) == before + 1


def test_two_concurrent_cancels_with_one_key_both_succeed(app, client, booked):
    path, body = f"/api/bookings/{booked['code']}/cancel", {"confirmation_code": booked["code"]}
    with BackgroundServer(app) as server:
        results = at_once(server.url, [("POST", path, body, {"Idempotency-Key": KEY})] * 2)
        assert http_sender(server.url)("POST", path, body)[0] == 409
    assert [status for status, _, _ in results] == [200, 200]
    assert results[0][1] == results[1][1]
