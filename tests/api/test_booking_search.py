"""Finding a booking without its code: GET /api/bookings?last_name=&date= lists the bookings of a
passenger with that last name that have a flight departing on that date, in the request's dataset."""
from .helpers import PASSENGER, booking_payload


def book(client, first_name="Bill", back="2026-07-14"):
    payload = booking_payload(client, back=back)
    payload["passenger"] = {**PASSENGER, "first_name": first_name}
    answer = client.post("/api/bookings", json=payload)
    assert answer.status_code == 201, answer.json
    return answer.json["booking"]


def test_two_bookings_of_one_last_name_on_one_day_are_both_listed_to_tell_apart(client):
    bill, ana = book(client), book(client, first_name="Ana", back=None)
    answer = client.get("/api/bookings?last_name=correa&date=07/07/2026")
    assert answer.status_code == 200
    listed = answer.json["bookings"]
    assert sorted(match["code"] for match in listed) == sorted([bill["code"], ana["code"]])
    by_code = {match["code"]: match for match in listed}
    assert by_code[bill["code"]] == {"code": bill["code"], "status": "Confirmed", "first_name": "Bill",
                                     "last_name": "Correa", "from": "JFK", "to": "FLL",
                                     "dates": ["2026-07-07", "2026-07-14"]}
    assert by_code[ana["code"]]["first_name"] == "Ana" and by_code[ana["code"]]["dates"] == ["2026-07-07"]


def test_the_return_date_finds_it_too_and_other_dates_or_names_find_nothing(client):
    bill = book(client)
    assert [m["code"] for m in client.get("/api/bookings?last_name=CORREA&date=2026-07-14").json["bookings"]] == \
        [bill["code"]]
    assert client.get("/api/bookings?last_name=Correa&date=2026-07-08").json == {"bookings": []}
    assert client.get("/api/bookings?last_name=Corre&date=2026-07-07").json == {"bookings": []}


def test_a_scenario_sees_only_its_own_bookings(client):
    book(client)
    scenario = client.get("/generate-random-scenario?task=TASK_FIND_FLIGHT&seed=1").json["id"]
    answer = client.get(f"/api/bookings?last_name=Correa&date=2026-07-07&scenario={scenario}")
    assert answer.status_code == 200 and answer.json == {"bookings": []}


def test_a_missing_or_malformed_name_or_date_is_a_clear_400(client):
    for query, field in (("date=2026-07-07", "Last name is required"), ("last_name=Correa", "Travel date is required"),
                         ("last_name=Correa&date=next+week", "Travel date must be a date"),
                         ("last_name=" + "x" * 61 + "&date=2026-07-07", "Last name is at most 60 characters")):
        answer = client.get(f"/api/bookings?{query}")
        assert answer.status_code == 400 and answer.json["error"].startswith(field), (query, answer.json)
