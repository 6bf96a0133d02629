"""Writers racing over real HTTP on one booking, one dataset or one new route-day: every write
happens once and every answer is the one it would get alone. On SQLite the write lock queues
them; on PostgreSQL (CRM_TEST_DATABASE=postgresql) the advisory locks of crm_app/db.py do."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import event, text

from crm_app.api.blueprint import calendar, world_seed
from crm_app.db import get_session
from crm_app.server import BackgroundServer
from crm_app.services.flights import flights_on_days

from .helpers import at_once, booking_payload, db_rows, search

RACERS = 8


def test_racing_cancels_of_one_booking_cancel_it_once(app, booked):
    path, body = f"/api/bookings/{booked['code']}/cancel", {"confirmation_code": booked["code"]}
    with BackgroundServer(app) as server:
        results = at_once(server.url, [("POST", path, body, {})] * RACERS)
    statuses = sorted(status for status, _, _ in results)
    assert statuses == [200] + [409] * (RACERS - 1)
    assert {body["error"] for status, body, _ in results if status == 409} == {
        f"Booking {booked['code']} is already cancelled"}


def test_changes_racing_a_cancel_either_come_first_or_are_refused(app, client, booked):
    code = booked["code"]
    later = booking_payload(client, back="2026-07-20")
    requests = [("POST", f"/api/bookings/{code}/cancel", {"confirmation_code": code}, {})]
    requests += [("PATCH", f"/api/bookings/{code}/passenger", {"passenger": {"first_name": f"Name{i}"}}, {})
                 for i in range(3)]
    requests += [("PUT", f"/api/bookings/{code}/flights", {"outward_flight_id": later["outward_flight_id"],
                                                           "return_flight_id": later["return_flight_id"]}, {})] * 3
    with BackgroundServer(app) as server:
        results = at_once(server.url, requests)
    assert {status for status, _, _ in results} <= {200, 409}
    assert results[0][0] == 200  # the cancel itself always goes through
    stored = client.get(f"/api/bookings/{code}").json["booking"]
    assert stored["status"] == "Cancelled"
    # a change that answered 200 is in the booking; a refused one left nothing
    changed_name = [body["booking"]["passenger"]["first_name"] for status, body, _ in results[1:4] if status == 200]
    assert stored["passenger"]["first_name"] in (changed_name or ["Bill"])


def test_racing_bookings_in_one_dataset_all_get_their_own_code(app, client):
    payload = booking_payload(client)
    before = len(db_rows(app)["bookings"])
    with BackgroundServer(app) as server:
        results = at_once(server.url, [("POST", "/api/bookings", payload, {})] * RACERS)
    assert [status for status, _, _ in results] == [201] * RACERS
    assert len({body["booking"]["code"] for _, body, _ in results}) == RACERS
    assert len(db_rows(app)["bookings"]) == before + RACERS


def test_racing_first_searches_of_a_route_day_store_its_flights_once(app):
    path = "/api/flights/search?from=SEA&to=MIA&date=2026-09-09"
    with BackgroundServer(app) as server:
        results = at_once(server.url, [("GET", path, None, {})] * RACERS)
    assert [status for status, _, _ in results] == [200] * RACERS
    assert all(body == results[0][1] for _, body, _ in results)  # the same flights, ids and all
    with app.extensions["engine"].connect() as connection:
        stored = connection.execute(text("SELECT count(*) FROM flights WHERE origin = 'SEA' AND destination = 'MIA' "
                                         "AND departure_date = '2026-09-09'")).scalar_one()
    assert (stored, _route_days_marked(app)) == (len(results[0][1]["flights"]), 1)


def test_a_week_of_a_route_is_stored_in_one_write_and_is_what_each_days_search_shows(app, client):
    """flights_on_days (a scenario looking at two weeks of a route): the days not stored yet are
    stored together, a day stored before is kept, and each day is what a search of it answers."""
    first = search(client, "SEA", "MIA", "2026-09-10")["flights"]
    days = [dt.date(2026, 9, 8) + dt.timedelta(days=offset) for offset in range(7)]
    commits = []
    count = commits.append  # one object, for listen and remove
    event.listen(app.extensions["engine"], "commit", count)
    with app.test_request_context():
        week = flights_on_days(get_session(), calendar(), world_seed(), "SEA", "MIA", days)
        ids = [[flight.id for flight in flights] for flights in week]
    event.remove(app.extensions["engine"], "commit", count)
    assert len(commits) == 1  # the six days not searched before, in one write
    assert ids[2] == [flight["id"] for flight in first]
    assert ids == [[flight["id"] for flight in search(client, "SEA", "MIA", day.isoformat())["flights"]] for day in days]
    assert _route_days_marked(app) == 7 and all(ids)


def _route_days_marked(app) -> int:
    """How many days of SEA to MIA have their flights stored."""
    with app.extensions["engine"].connect() as connection:
        return connection.execute(text("SELECT count(*) FROM route_days WHERE origin = 'SEA' "
                                       "AND destination = 'MIA'")).scalar_one()
