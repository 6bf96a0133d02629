"""Booking, finding, cancelling and changing bookings through the JSON API."""
import pytest

from .helpers import PASSENGER, PAYMENT, booking_payload, db_rows, search


def test_booking_round_trip_then_find_it(client, booked):
    assert booked["status"] == "Confirmed"
    assert booked["trip_type"] == "return"
    assert len(booked["code"]) == 6 and booked["code"].isalnum() and booked["code"].upper() == booked["code"]
    assert [f["direction"] for f in booked["flights"]] == ["outward", "return"]
    assert booked["passenger"] == PASSENGER
    assert booked["payment"] == {"card_last4": "1111", "expiry": "04/29", "name_on_card": "Bill Correa"}
    found = client.get(f"/api/bookings/{booked['code'].lower()}")
    assert found.status_code == 200
    assert found.json["booking"] == booked


def test_total_is_fares_plus_taxes(booked):
    fares = sum(int(f["fare"].replace(".", "")) for f in booked["flights"])
    taxes = round(fares * 0.075) + 2 * 560
    assert booked["price_lines"][-1] == {"label": "Taxes and fees", "amount": f"{taxes // 100}.{taxes % 100:02d}"}
    total = fares + taxes
    assert booked["total"] == f"{total // 100}.{total % 100:02d}"


def test_one_way_booking(client):
    response = client.post("/api/bookings", json=booking_payload(client, back=None))
    assert response.status_code == 201
    assert response.json["booking"]["trip_type"] == "oneway"
    assert len(response.json["booking"]["flights"]) == 1


def test_unknown_code_is_a_404_with_the_contract_message(client):
    response = client.get("/api/bookings/ZZZZZ9")
    assert response.status_code == 404
    assert response.json == {"error": "No booking found with confirmation code ZZZZZ9"}


def test_cancel_needs_the_code_re_entered(app, client, booked):
    before = db_rows(app)
    wrong = client.post(f"/api/bookings/{booked['code']}/cancel", json={"confirmation_code": "AAAAAA"})
    assert wrong.status_code == 400
    assert wrong.json["error"] == "The confirmation code does not match this booking"
    assert db_rows(app) == before
    done = client.post(f"/api/bookings/{booked['code']}/cancel", json={"confirmation_code": booked["code"].lower()})
    assert done.status_code == 200
    assert done.json["booking"]["status"] == "Cancelled"
    assert client.get(f"/api/bookings/{booked['code']}").json["booking"]["status"] == "Cancelled"


def test_cancelling_twice_is_a_409_and_changes_nothing(app, client, booked):
    client.post(f"/api/bookings/{booked['code']}/cancel", json={"confirmation_code": booked["code"]})
    before = db_rows(app)
    again = client.post(f"/api/bookings/{booked['code']}/cancel", json={"confirmation_code": booked["code"]})
    assert again.status_code == 409
    assert again.json["error"] == f"Booking {booked['code']} is already cancelled"
    assert db_rows(app) == before


def test_change_two_passenger_fields(client, booked):
    response = client.patch(f"/api/bookings/{booked['code']}/passenger",
                            json={"first_name": "William", "email": "w.correa@example.com"})
    assert response.status_code == 200
    passenger = response.json["booking"]["passenger"]
    assert passenger == {**PASSENGER, "first_name": "William", "email": "w.correa@example.com"}


def test_change_flights_to_other_dates_reprices(client, booked):
    found = search(client, date="2026-08-03", back="2026-08-09")
    outward, back = found["flights"][-1], found["return_flights"][0]
    response = client.put(f"/api/bookings/{booked['code']}/flights",
                          json={"outward_flight_id": outward["id"], "return_flight_id": back["id"]})
    assert response.status_code == 200
    changed = response.json["booking"]
    assert [(f["number"], f["date"]) for f in changed["flights"]] == [
        (outward["number"], "2026-08-03"), (back["number"], "2026-08-09")]
    assert changed["flights"][0]["fare"] == outward["price"]


def test_change_flights_must_keep_the_route(app, client, booked):
    other = search(client, "BOS", "SEA", back="2026-07-20")
    before = db_rows(app)
    response = client.put(f"/api/bookings/{booked['code']}/flights", json={
        "outward_flight_id": other["flights"][0]["id"], "return_flight_id": other["return_flights"][0]["id"]})
    assert response.status_code == 400
    assert response.json["error"] == "The new flights must keep the route JFK to FLL"
    assert db_rows(app) == before


@pytest.mark.parametrize("change, field, message", [
    ({"passenger": {**PASSENGER, "first_name": " "}}, "first_name", "First name is required"),
    ({"passenger": {**PASSENGER, "email": "bill"}}, "email", "Email address must look like name@example.com"),
    ({"passenger": {**PASSENGER, "title": "Sir"}}, "title", "Title must be one of Mr, Mrs, Ms, Miss, Dr"),
    ({"passenger": {**PASSENGER, "date_of_birth": "2030-01-01"}}, "date_of_birth", "Date of birth must be a past date"),
    ({"payment": {**PAYMENT, "card_number": "4111111111111112"}}, "card_number", "Card number is not valid"),
    ({"payment": {**PAYMENT, "expiry": "05/26"}}, "expiry", "Card has expired"),
    ({"payment": {**PAYMENT, "expiry": "13/29"}}, "expiry", "Expiry must be MM/YY"),
    ({"payment": {**PAYMENT, "security_code": "12"}}, "security_code", "Security code must be 3 or 4 digits"),
    ({"payment": {**PAYMENT, "name_on_card": ""}}, "name_on_card", "Name on card is required"),
    ({"outward_flight_id": None}, "outward_flight_id", "Choose the outward flight"),
    ({"outward_flight_id": "12"}, "outward_flight_id", "Choose the outward flight"),
    ({"return_flight_id": 10**9}, "return_flight_id", "Choose the return flight"),
])
def test_bad_booking_input_names_the_field_and_writes_nothing(app, client, change, field, message):
    payload = booking_payload(client, **change)
    before = db_rows(app)
    response = client.post("/api/bookings", json=payload)
    assert response.status_code == 400
    assert response.json["error"] == message
    assert response.json["fields"] == {field: message}
    assert db_rows(app) == before


def test_missing_passenger_fields_are_all_named(app, client):
    before = db_rows(app)
    response = client.post("/api/bookings", json=booking_payload(client, passenger={"title": "Mr"}))
    assert response.status_code == 400
    assert set(response.json["fields"]) == {"first_name", "last_name", "email", "gender", "date_of_birth"}
    assert response.json["error"] == "Please correct: First name, Last name, Email address, Gender, Date of birth"
    assert db_rows(app) == before


def test_return_before_departure_is_refused(app, client):
    out = search(client, date="2026-07-10")["flights"][0]
    back = search(client, "FLL", "JFK", date="2026-07-05")["flights"][0]
    before = db_rows(app)
    response = client.post("/api/bookings", json={
        "outward_flight_id": out["id"], "return_flight_id": back["id"], "passenger": PASSENGER, "payment": PAYMENT})
    assert response.status_code == 400
    assert response.json["error"] == "Return date must not be before the departure date"
    assert db_rows(app) == before


def test_bad_passenger_change_writes_nothing(app, client, booked):
    before = db_rows(app)
    response = client.patch(f"/api/bookings/{booked['code']}/passenger", json={"gender": "Robot", "first_name": "Al"})
    assert response.status_code == 400
    assert response.json["fields"] == {"gender": "Gender must be one of Male, Female, Other"}
    assert db_rows(app) == before


def test_changes_to_a_cancelled_booking_are_refused(client, booked):
    client.post(f"/api/bookings/{booked['code']}/cancel", json={"confirmation_code": booked["code"]})
    response = client.patch(f"/api/bookings/{booked['code']}/passenger", json={"first_name": "Al"})
    assert response.status_code == 409


def test_passenger_validation_route(client):
    ok = client.post("/api/passenger/validate", json={"passenger": {**PASSENGER, "date_of_birth": "04/20/2003"}})
    assert ok.status_code == 200
    assert ok.json["passenger"]["date_of_birth"] == "2003-04-20"
    bad = client.post("/api/passenger/validate", json={"passenger": {}})
    assert bad.status_code == 400
    assert len(bad.json["fields"]) == 6
