"""Deterministic hostile requests to `python run.py`, outside and inside a real scenario: JSON 1,000
and 100,000 levels deep to every route that takes a body, bodies one byte over the limit, digits
that are not ASCII and numbers of 5,000 digits in every numeric query or body field. Each must get
a JSON 4xx, and the connection must then serve the next request, or have said `Connection: close`
and be closed."""
from __future__ import annotations

import json
import urllib.parse

import pytest

from tests.api.test_production_server import RunningServer, read_answer
from tests.conftest import OPERATOR_TOKEN
from tests.slow_connections import ends_within

BODY_LIMIT = 64 * 1024
BODY_ROUTES = [("POST", "/api/passenger/validate"), ("POST", "/api/bookings"), ("POST", "/api/bookings/{code}/cancel"),
               ("PATCH", "/api/bookings/{code}/passenger"), ("PUT", "/api/bookings/{code}/flights"),
               ("POST", "/api/events")]
NUMERIC_QUERY = [("/api/quote", "outward"), ("/api/quote", "return"), ("/api/bookings/{code}/flights/quote", "outward"),
                 ("/api/bookings/{code}/flights/quote", "return"), ("/generate-random-scenario", "seed"),
                 ("/generate-random-scenario?task=+", "ui_variant"), ("/generate-random-scenario", "initial_state"),
                 ("/reset-scenario", "initial_state"), ("/evaluate", "timeline")]
NUMERIC_BODY = [("POST", "/api/bookings", "outward_flight_id"), ("POST", "/api/bookings", "return_flight_id"),
                ("PUT", "/api/bookings/{code}/flights", "outward_flight_id"),
                ("PUT", "/api/bookings/{code}/flights", "return_flight_id"), ("POST", "/api/events", "seq")]
ODD_NUMBERS = ["⁵", "²", "٣", "１２", "5" * 5_000]


def deep(depth: int) -> bytes:
    return b'{"passenger": ' + b"[" * depth + b"]" * depth + b"}"


def hostile_requests() -> list[tuple[str, str, bytes | None]]:
    """(method, path with its query, JSON body or None)."""
    found = []
    for method, path in BODY_ROUTES:
        found += [(method, path, deep(1_000)), (method, path, deep(100_000)),
                  (method, path, b'{"a": "' + b"x" * (BODY_LIMIT - 9) + b'"}')]  # one byte over
    for path, name in NUMERIC_QUERY:
        joint = "&" if "?" in path else "?"
        found += [("GET", f"{path}{joint}{name}={urllib.parse.quote(value)}", None) for value in ODD_NUMBERS]
    for method, path, name in NUMERIC_BODY:
        found += [(method, path, b'{"%s": %s}' % (name.encode(), value.encode()))
                  for value in ("5" * 5_000, "1e400", "-0")]
        found += [(method, path, json.dumps({name: value}).encode()) for value in ODD_NUMBERS]
    return found


HOSTILE = hostile_requests()


@pytest.fixture(scope="module")
def server(databases, tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile-requests")
    running = RunningServer(databases.new(folder), folder, "--workers", "1")
    yield running
    assert running.stop() == 0


@pytest.fixture(scope="module")
def scenario(server) -> dict:
    with server.connect() as connection:
        connection.sendall(b"GET /generate-random-scenario?task=TASK_CANCEL_FLIGHT&seed=3 HTTP/1.1\r\nHost: x\r\n"
                           b"X-Operator-Token: " + OPERATOR_TOKEN.encode() + b"\r\n\r\n")
        status, _head, body = read_answer(connection)
    assert status == 200
    return json.loads(body)


def request_bytes(method: str, target: str, body: bytes | None) -> bytes:
    head = f"{method} {target} HTTP/1.1\r\nHost: x\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + (body or b"")


@pytest.mark.parametrize("scoped", [False, True], ids=["sandbox", "scenario"])
@pytest.mark.parametrize("method, path, body", HOSTILE,
                         ids=[f"{m} {p.split('?')[0]} {len(b or b'')}B #{i}" for i, (m, p, b) in enumerate(HOSTILE)])
def test_a_hostile_request_gets_a_json_4xx_and_the_connection_stays_usable(server, scenario, scoped, method, path,
                                                                            body):
    target = path.format(code=scenario["details"]["confirmation-code"])
    if scoped:
        target += ("&" if "?" in target else "?") + f"scenario={scenario['id']}"
    with server.connect() as connection:
        connection.sendall(request_bytes(method, target, body))
        status, head, answer = read_answer(connection)
        assert 400 <= status < 500, (status, answer[:300])
        assert isinstance(json.loads(answer)["error"], str)
        if "Connection: close" in head:
            assert ends_within(connection, 10)
            return
        connection.sendall(request_bytes("GET", "/api/config", None))
        assert read_answer(connection)[0] == 200
