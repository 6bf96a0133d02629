"""What is stored: cards reduced to last four digits and a salted hash; bookings that survive restarts."""
import logging
import threading

from sqlalchemy import select

from crm_app.http_client import http_sender
from crm_app.models import Base
from crm_app.server import BackgroundServer
from scenarios.app import create_app

from .helpers import booking_payload

CARD = "4111111111111111"


def test_full_card_number_is_in_no_table_response_or_log(app, client, caplog):
    caplog.set_level(logging.DEBUG)
    response = client.post("/api/bookings", json=booking_payload(client))
    assert response.status_code == 201
    assert CARD not in response.get_data(as_text=True)
    with app.extensions["engine"].connect() as connection:
        dump = "\n".join(str(row) for table in Base.metadata.sorted_tables
                         for row in connection.execute(select(table)))
    assert CARD not in dump
    assert "1111" in dump  # the last four digits are kept
    assert CARD not in caplog.text


def test_stored_card_hash_is_salted(app, client):
    for _ in range(2):
        client.post("/api/bookings", json=booking_payload(client))
    with app.extensions["engine"].connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT card_salt, card_hash FROM payments p JOIN bookings b ON b.id = p.booking_id "
            "WHERE card_last4 = '1111' AND name_on_card = 'Bill Correa'").all()
    assert len(rows) == 2
    assert rows[0].card_hash != rows[1].card_hash


def test_bookings_survive_a_restart(database_url):
    url = database_url
    first = create_app({"DATABASE_URL": url, "SANDBOX_BOOKINGS": 3}).test_client()
    code = first.post("/api/bookings", json=booking_payload(first)).json["booking"]["code"]
    second = create_app({"DATABASE_URL": url, "SANDBOX_BOOKINGS": 3}).test_client()
    found = second.get(f"/api/bookings/{code}")
    assert found.status_code == 200
    assert found.json["booking"]["passenger"]["last_name"] == "Correa"


def test_sandbox_data_is_the_same_on_every_machine(databases, tmp_path):
    codes = []
    for name in ("a", "b"):
        app = create_app({"DATABASE_URL": databases.new(tmp_path, name), "SANDBOX_BOOKINGS": 4})
        with app.extensions["engine"].connect() as connection:
            codes.append(connection.exec_driver_sql(
                "SELECT code, first_name FROM bookings JOIN passengers ON passengers.booking_id = bookings.id "
                "ORDER BY bookings.id").all())
    assert len(codes[0]) == 4
    assert codes[0] == codes[1]


def test_simultaneous_bookings_both_exist_with_distinct_codes(app, client):
    payloads = [booking_payload(client), booking_payload(client, back=None)]
    results = []
    with BackgroundServer(app) as server:
        barrier = threading.Barrier(len(payloads))

        def book(payload):
            barrier.wait()
            results.append(http_sender(server.url)("POST", "/api/bookings", payload))

        threads = [threading.Thread(target=book, args=(p,)) for p in payloads]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert [status for status, _ in results] == [201, 201]
    codes = {body["booking"]["code"] for _, body in results}
    assert len(codes) == 2
    for code in codes:
        assert client.get(f"/api/bookings/{code}").status_code == 200
