"""No slow client stalls `python run.py` (its defaults: one worker of 8 threads, a 10 s request
time-out, a 5 s keep-alive): with 1,000 connections that sent half a request, or 1,000 that sent
nothing, a normal request on a new connection is answered before any slow client could have timed
out (a server whose threads they held would answer it only after the shortest time-out: the bound is
half of it, wide enough for a machine whose cores other tests keep busy), and the server closes the
half-open ones within the request time-out (with a JSON 408) and the silent ones after the
keep-alive."""
from __future__ import annotations

import json
import time

import pytest

from crm_app.production_server import ServerOptions
from tests.api.test_production_server import RunningServer
from tests.slow_connections import closed_by, normal_request, open_slow

CLIENTS = 1_000
HALF_A_REQUEST = b"GET /api/airports?q=JF HT"


@pytest.fixture(scope="module")
def server(databases, tmp_path_factory):
    folder = tmp_path_factory.mktemp("slow-clients")
    running = RunningServer(databases.new(folder), folder)  # run.py's defaults
    yield running
    assert running.stop() == 0


@pytest.mark.database_independent  # the HTTP server's threads, not the database: the SQLite pass checks it
@pytest.mark.parametrize("first_bytes", [HALF_A_REQUEST, b""], ids=["half-open", "silent"])
def test_a_thousand_slow_clients_stall_no_one(server, first_bytes):
    slow = []
    try:
        slow = open_slow((server.host, server.port), CLIENTS, first_bytes)
        opened = time.monotonic()
        seconds, answer = normal_request((server.host, server.port))
        head, _, body = answer.partition(b"\r\n\r\n")
        status, body = int(head.split()[1]), json.loads(body)
        assert status == 200 and body["airports"][0]["code"] == "JFK"
        defaults = ServerOptions()
        bound = min(defaults.request_timeout, defaults.keep_alive) / 2
        assert seconds < bound, f"a normal request waited {seconds:.2f} s behind {CLIENTS} slow clients"
        limit = defaults.request_timeout if first_bytes else defaults.keep_alive
        closed, answers = closed_by(slow, opened + limit + 3)
        assert closed == CLIENTS, f"{closed} of {CLIENTS} closed within {limit + 3:g} s"
        if first_bytes:
            assert all(b"HTTP/1.1 408 " in answer for answer in answers)
        else:
            assert not any(answers)
    finally:
        for connection in slow:
            connection.close()
