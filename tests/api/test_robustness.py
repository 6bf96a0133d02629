"""No route answers 500 to malformed JSON, missing fields, wrong types or unknown codes."""
import json

import pytest

from .helpers import PASSENGER, PAYMENT, db_rows

BODIES = [
    None, "not json", "[]", "42", "null", '"text"', "{}",
    json.dumps({"passenger": "Bill", "payment": [], "outward_flight_id": {"a": 1}}),
    json.dumps({"passenger": {**PASSENGER, "date_of_birth": 19990101}, "payment": {**PAYMENT, "card_number": 4111111111111111}}),
    json.dumps({"passenger": {"title": None, "first_name": ["x"]}, "confirmation_code": 12345}),
    json.dumps({"outward_flight_id": True, "return_flight_id": -1, "first_name": "x" * 5000}),
]
WRITES = [
    ("post", "/api/bookings"), ("post", "/api/bookings/{code}/cancel"), ("patch", "/api/bookings/{code}/passenger"),
    ("put", "/api/bookings/{code}/flights"), ("post", "/api/passenger/validate"),
]


@pytest.mark.parametrize("method, route", WRITES)
def test_malformed_bodies_get_4xx_json_and_change_nothing(app, client, booked, method, route):
    before = db_rows(app)
    for body in BODIES:
        response = getattr(client, method)(route.format(code=booked["code"]), data=body,
                                           content_type="application/json")
        assert 400 <= response.status_code < 500, (body, response.json)
        assert isinstance(response.json["error"], str) and response.json["error"]
    assert db_rows(app) == before


@pytest.mark.parametrize("method, route", WRITES + [("get", "/api/bookings/{code}")])
def test_unknown_codes_get_4xx_json(client, method, route):
    for code in ("ZZZZZ9", "x", "%20", "DROP TABLE", "A" * 300):
        response = getattr(client, method)(route.format(code=code), json={"confirmation_code": code})
        assert 400 <= response.status_code < 500
        assert "error" in response.json


@pytest.mark.parametrize("query", [
    "", "from=JFK", "from=JFK&to=FLL", "from[]=x&to=1&date=2026-13-45", "from=JFK&to=FLL&date=2026-07-07&return=x",
    "from=" + "J" * 500 + "&to=FLL&date=2026-07-07",
])
def test_broken_search_queries_get_400(client, query):
    response = client.get(f"/api/flights/search?{query}")
    assert response.status_code == 400
    assert response.json["error"]


def test_unknown_routes_and_methods_are_json(client):
    assert client.get("/api/nowhere").status_code == 404
    assert client.get("/api/nowhere").json["error"]
    response = client.delete("/api/bookings/ABCDEF")
    assert response.status_code == 405
    assert response.json["error"]


@pytest.mark.parametrize("scenario", ["nosuchscenario", "BAD ID!", "x" * 80])
def test_unknown_or_malformed_scenario_ids_are_4xx(client, scenario):
    response = client.get(f"/api/bookings/ABCDEF?scenario={scenario}")
    assert response.status_code in (400, 404)
    assert "scenario" in response.json["error"].lower()
