"""Airport lookup and flight search through the JSON API."""
import re

import pytest

from scenarios.app import create_app

from .helpers import search


def test_at_least_thirty_real_airports_with_city_labels(client):
    airports = client.get("/api/airports").json["airports"]
    assert len(airports) >= 30
    labels = {a["code"]: a["label"] for a in airports}
    assert labels["JFK"] == "New York, NY (JFK)"
    assert labels["LAX"] == "Los Angeles, CA (LAX)"


def test_airport_lookup_matches_city_and_code(client):
    codes = [a["code"] for a in client.get("/api/airports?q=chicago").json["airports"]]
    assert sorted(codes) == ["MDW", "ORD"]
    assert client.get("/api/airports?q=sfo").json["airports"][0]["code"] == "SFO"


def test_search_lists_four_to_eight_flights_in_departure_order(client):
    flights = search(client)["flights"]
    assert 4 <= len(flights) <= 8
    for flight in flights:
        assert re.fullmatch(r"1?\d:\d\d[ap]m", flight["departure_time"])
        assert re.fullmatch(r"\d+\.\d\d", flight["price"])
        assert (flight["from"], flight["to"], flight["date"]) == ("JFK", "FLL", "2026-07-07")
    minutes = [_minutes(f["departure_time"]) for f in flights]
    assert minutes == sorted(minutes)


def _minutes(clock: str) -> int:
    hours, rest = clock[:-2].split(":")
    return (int(hours) % 12 + (12 if clock.endswith("pm") else 0)) * 60 + int(rest)


def test_return_search_gives_both_legs_and_accepts_us_dates(client):
    found = search(client, date="07/07/2026", back="07/14/2026")
    assert found["return_date"] == "2026-07-14"
    assert {(f["from"], f["to"]) for f in found["return_flights"]} == {("FLL", "JFK")}


def test_every_day_of_the_twelve_month_window_is_sellable(client):
    assert search(client, date="2026-06-01")["flights"]
    assert search(client, date="2027-06-01")["flights"]


def test_same_seed_gives_the_same_timetable_on_another_database(client, databases, tmp_path):
    other = create_app({"DATABASE_URL": databases.new(tmp_path, "other"), "SANDBOX_BOOKINGS": 0})
    strip = lambda flights: [{k: v for k, v in f.items() if k != "id"} for f in flights]  # noqa: E731
    assert strip(search(client, "BOS", "SEA")["flights"]) == strip(search(other.test_client(), "BOS", "SEA")["flights"])


@pytest.mark.parametrize("query, message", [
    ("from=JFK&to=XYZ&date=2026-07-07", "Unknown airport: XYZ"),
    ("from=&to=FLL&date=2026-07-07", "Enter the departure airport"),
    ("from=JFK&to=JFK&date=2026-07-07", "From and To must be different airports"),
    ("from=JFK&to=FLL&date=2028-01-01", "Departure date must be between 06/01/2026 and 06/01/2027"),
    ("from=JFK&to=FLL&date=2026-05-31", "Departure date must be between 06/01/2026 and 06/01/2027"),
    ("from=JFK&to=FLL&date=next+tuesday", "Departure date must be a date like MM/DD/YYYY or YYYY-MM-DD (got next tuesday)"),
    ("from=JFK&to=FLL&date=2026-07-07&return=2026-07-01", "Return date must not be before the departure date"),
    ("from=JFK&to=FLL&date=2026-07-07&return=2027-07-01", "Return date must be between 06/01/2026 and 06/01/2027"),
])
def test_bad_search_input_is_a_400_with_a_readable_message(client, query, message):
    response = client.get(f"/api/flights/search?{query}")
    assert response.status_code == 400
    assert response.json["error"] == message


def test_quote_prices_chosen_flights(client):
    found = search(client, back="2026-07-14")
    outward, back = found["flights"][0], found["return_flights"][0]
    quote = client.get(f"/api/quote?outward={outward['id']}&return={back['id']}").json
    fares = outward["price_cents"] + back["price_cents"]
    taxes = round(fares * 0.075) + 2 * 560
    assert [line["label"] for line in quote["price_lines"]] == [
        f"Outward flight {outward['number']}", f"Return flight {back['number']}", "Taxes and fees"]
    assert quote["total"] == f"{(fares + taxes) // 100}.{(fares + taxes) % 100:02d}"


@pytest.mark.parametrize("origin, destination", [("JFK", "FLL"), ("SEA", "PHX"), ("HNL", "LAX")])
def test_a_flight_number_is_one_flight_every_day(client, origin, destination):
    """The same number flies the same route at the same time for the same duration on every day it
    operates (across the change of daylight saving time on Nov 1); only the price changes by day."""
    seen: dict[str, set] = {}
    prices: dict[str, set] = {}
    days = [f"2026-{month}-{day:02d}" for month in ("07", "10", "11") for day in range(1, 31, 3)]
    for day in days:
        for flight in search(client, origin, destination, day)["flights"]:
            assert (flight["from"], flight["to"]) == (origin, destination)
            seen.setdefault(flight["number"], set()).add((flight["departure_time"], flight["duration"]))
            prices.setdefault(flight["number"], set()).add(flight["price"])
    assert len(seen) == 8  # the route's timetable; each day operates 4 to 8 of it
    assert all(len(times) == 1 for times in seen.values()), seen
    assert all(len(day_prices) > 1 for day_prices in prices.values())
