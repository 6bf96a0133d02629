"""`python run.py` as users run it: gunicorn worker processes on the test database, answering the
HTTP server's own errors as JSON, with request and keep-alive time-outs, a bound on connections
and a graceful stop."""
from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from crm_app.app_turns import FairTurn, TakingTurns
from crm_app.http_client import http_sender
from crm_app.server import SERVER_MESSAGES
from tests.conftest import OPERATOR
from tests.slow_connections import ends_within

ROOT = Path(__file__).resolve().parents[2]
PUBLIC_URL = "https://crm.example.org/lab/"
# The head of a passenger check, up to its body's length; and one whose body stops half-way.
PASSENGER_CHECK = b"POST /api/passenger/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
BODY_STOPS_HALF_WAY = PASSENGER_CHECK + b'Content-Length: 100\r\n\r\n{"passenger":'


class RunningServer:
    """run.py in a process of its own (with `environment` added to this process's); `url` is where
    it answers, `log` what it wrote to stderr."""

    def __init__(self, database_url: str, folder: Path, *options: str, environment: dict | None = None):
        environment = {**os.environ, "CRM_INSTANCE_PATH": str(folder / "instance"), **(environment or {})}
        self.process = subprocess.Popen([sys.executable, "run.py", "--port", "0", "--db", database_url, *options],
                                        cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        self.log: list[str] = []
        threading.Thread(target=lambda: self.log.extend(self.process.stderr), daemon=True).start()
        lines = [self.process.stdout.readline() for _ in range(3)]  # the token, the suite, the address
        found = re.search(r"serving at (http://[\d.]+:\d+)/", lines[-1])
        assert lines[0].startswith("Operator token") and found, (lines, self.log)
        self.url = found.group(1)
        self.host, self.port = self.url.removeprefix("http://").split(":")
        self.port = int(self.port)

    def booted_workers(self) -> set[str]:
        return {line.split("pid: ")[1].strip() for line in list(self.log) if "Booting worker" in line}

    def wait_for_workers(self, count: int, seconds: float = 15) -> None:
        """Until `count` workers have booted (or `seconds` have passed: the test then finds fewer)."""
        deadline = time.monotonic() + seconds
        while len(self.booted_workers()) < count and time.monotonic() < deadline:
            time.sleep(0.1)

    def connect(self) -> socket.socket:
        return socket.create_connection((self.host, self.port), timeout=30)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


def answer(connection: socket.socket) -> tuple[int, dict, str]:
    """(status, JSON body, head) of the one response read until the server closes the connection."""
    raw = b""
    while chunk := connection.recv(65536):
        raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body), head.decode("latin-1")


def read_answer(connection: socket.socket) -> tuple[int, str, bytes]:
    """(status, head, body) of one whole response, read by its Content-Length, from a connection
    the server may keep open."""
    received = b""
    while b"\r\n\r\n" not in received:
        received += connection.recv(65536) or pytest.fail(f"closed without an answer: {received[:200]!r}")
    head, _, body = received.partition(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", head, re.I).group(1))
    while len(body) < length:
        body += connection.recv(65536) or pytest.fail("closed in the middle of an answer")
    return int(head.split()[1]), head.decode("latin-1"), body


def one_answer_kept_alive(connection: socket.socket) -> str:
    """Read one whole response from a connection left open; its head."""
    return read_answer(connection)[1]


@pytest.fixture(scope="module")
def server(databases, tmp_path_factory):
    folder = tmp_path_factory.mktemp("production")
    running = RunningServer(databases.new(folder), folder, "--workers", "2", "--threads", "4",
                            "--request-timeout", "1", "--keep-alive", "1", "--public-url", PUBLIC_URL)
    yield running
    assert running.stop() == 0


def test_two_worker_processes_serve_the_api_and_the_scenarios(server):
    send = http_sender(server.url, headers=OPERATOR)
    assert send("GET", "/api/config", None)[0] == 200
    server.wait_for_workers(2)
    assert len(server.booted_workers()) == 2
    status, scenario = send("GET", "/generate-random-scenario?task=TASK_FIND_BOOKING&seed=5", None)
    assert status == 200 and scenario["url"] == f"{PUBLIC_URL}?scenario={scenario['id']}"
    assert send("GET", f"/evaluate?scenario={scenario['id']}", None)[1]["gold_actions"]


def connections_held(pid: str, port: int, readings: int = 3) -> int:
    """How many established connections to `port` the process `pid` holds (from /proc). The kernel
    writes /proc/net/tcp a chunk at a time, walking its table as it changes, so one reading can list
    a socket twice or miss one while other processes open and close theirs: the count is of
    distinct sockets over a few readings (the connections counted stay open meanwhile)."""
    own = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
    held = set()
    for _ in range(readings):
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()
            local_port, state, inode = int(fields[1].split(":")[1], 16), fields[3], fields[9]
            if local_port == port and state == "01" and f"socket:[{inode}]" in own:
                held.add(inode)
    return len(held)


@pytest.fixture(scope="module")
def patient_server(databases, tmp_path_factory):
    """Two workers keeping idle connections for 30 s: a slow machine must not close any while a test counts them."""
    folder = tmp_path_factory.mktemp("patient")
    running = RunningServer(databases.new(folder), folder, "--workers", "2", "--threads", "4", "--keep-alive", "30")
    running.wait_for_workers(2)
    yield running
    assert running.stop() == 0


def test_kept_alive_connections_are_spread_evenly_over_the_workers(patient_server):
    workers = patient_server.booted_workers()
    assert len(workers) == 2
    connections = [patient_server.connect() for _ in range(12)]
    try:
        for connection in connections:
            connection.sendall(b"GET /api/config HTTP/1.1\r\nHost: crm\r\n\r\n")
        for connection in connections:
            assert one_answer_kept_alive(connection).startswith("HTTP/1.1 200")
        held = sorted(connections_held(pid, patient_server.port) for pid in workers)
    finally:
        for connection in connections:
            connection.close()
    assert sum(held) == 12 and held[1] - held[0] <= 2, held


def _send_raw(server, data: bytes) -> tuple[int, dict, str]:
    with server.connect() as connection:
        connection.sendall(data)
        return answer(connection)


def test_a_request_line_over_64_kb_is_a_json_414(server):
    status, body, head = _send_raw(server, b"GET /api/airports?q=" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert (status, body) == (414, {"error": SERVER_MESSAGES[414]})
    assert "Content-Type: application/json" in head and "X-Content-Type-Options: nosniff" in head


def test_a_long_request_line_under_the_limit_reaches_the_app(server):
    query = "a" * 60_000
    status, body = http_sender(server.url)("GET", f"/api/airports?q={query}", None)
    assert (status, body) == (200, {"airports": []})


@pytest.mark.parametrize("headers", [b"X-Big: " + b"a" * 70_000 + b"\r\n",
                                     b"".join(b"X-H%d: 1\r\n" % i for i in range(101))])
def test_a_header_over_64_kb_or_too_many_headers_is_a_json_431(server, headers):
    status, body, _ = _send_raw(server, b"GET /api/config HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")
    assert (status, body) == (431, {"error": SERVER_MESSAGES[431]})


def test_a_malformed_request_is_a_json_400(server):
    status, body, _ = _send_raw(server, b"GET /api/config HTTP/9.x\r\n\r\n")
    assert status == 400 and body["error"].startswith("The request is not valid HTTP/1.1")


def test_a_body_over_64_kb_is_a_json_413(server):
    status, body = http_sender(server.url)("POST", "/api/passenger/validate", {"padding": "x" * 70_000})
    assert (status, body) == (413, {"error": "The request body is larger than 65536 bytes"})


def test_a_chunked_body_over_64_kb_is_a_json_413(server):
    chunk = b'{"padding": "' + b"x" * 70_000 + b'"}'
    status, body, _ = _send_raw(server, PASSENGER_CHECK + b"Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n0\r\n\r\n")
    assert (status, body) == (413, {"error": "The request body is larger than 65536 bytes"})


@pytest.mark.parametrize("framing", [b"Content-Length: 2000000\r\n\r\n", b"Transfer-Encoding: chunked\r\n\r\n"])
def test_an_answer_that_leaves_the_body_unread_says_connection_close(server, framing):
    """A 413 does not read the 2 MB body (or the rest of a chunked one): the connection cannot carry
    another request, so the answer says so instead of promising keep-alive and closing under the
    client's next request."""
    body = b"{" + b" " * 100_000 if b"Length" in framing else b"%x\r\n{%s\r\n" % (100_001, b" " * 100_000)
    with server.connect() as connection:
        connection.sendall(PASSENGER_CHECK + framing + body)
        head = one_answer_kept_alive(connection)
        assert head.startswith("HTTP/1.1 413") and "Connection: close" in head, head
        assert ends_within(connection, 10)


def test_after_a_4xx_whose_body_was_read_the_connection_serves_the_next_request(server):
    with server.connect() as connection:
        for request in (PASSENGER_CHECK + b"Content-Length: 9\r\n\r\n{not json",
                        b"GET /api/quote?outward=%E2%81%B5 HTTP/1.1\r\nHost: x\r\n\r\n",
                        b"GET /api/config HTTP/1.1\r\nHost: x\r\n\r\n"):
            connection.sendall(request)
            head = one_answer_kept_alive(connection)
            assert "Connection: keep-alive" in head, head
        assert head.startswith("HTTP/1.1 200")


def test_a_client_that_expects_100_continue_is_told_to_go_on(server):
    """curl asks before sending a body over 1 KB: the server must not wait for a body the client
    holds back until it hears `100 Continue`."""
    body = json.dumps({"passenger": {"first_name": "A" * 2000}}).encode()
    with server.connect() as connection:
        connection.settimeout(5)
        connection.sendall(PASSENGER_CHECK + b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % len(body))
        assert connection.recv(65536).startswith(b"HTTP/1.1 100 Continue")
        connection.sendall(body)
        assert one_answer_kept_alive(connection).startswith("HTTP/1.1 400")


def test_a_body_cut_short_by_the_client_leaving_reaches_no_route(server):
    with server.connect() as connection:
        # Valid JSON, 83 bytes short of its length:
        connection.sendall(PASSENGER_CHECK + b'Content-Length: 100\r\n\r\n{"passenger": {}}')
        connection.shutdown(socket.SHUT_WR)
        connection.settimeout(10)
        assert connection.recv(65536) == b""  # closed unanswered: the route never saw the cut body


def test_a_body_that_trickles_in_holds_up_no_other_request(patient_server):
    """The app works on one request at a time per worker, but only once its body is all there."""
    with patient_server.connect() as stalled:
        stalled.sendall(BODY_STOPS_HALF_WAY)
        started = time.monotonic()
        for _ in range(4):  # on both workers, whichever holds the stalled one
            assert http_sender(patient_server.url)("GET", "/api/config", None)[0] == 200
        assert time.monotonic() - started < 5 and not ends_within(stalled, 0.1)  # still waiting for its body


@pytest.mark.parametrize("partial", [
    b"GET /api/config HTTP/1.1\r\nHost: x\r\n",  # the head stops half-way
    BODY_STOPS_HALF_WAY,  # the body stops half-way (the server is reading it)
])
def test_a_request_that_stops_half_way_gets_a_json_408_and_is_closed(server, partial):
    with server.connect() as connection:
        connection.sendall(partial)
        started = time.monotonic()
        status, body, _ = answer(connection)
    assert (status, body) == (408, {"error": "The request did not arrive in full within 1 seconds"})
    assert 0.9 < time.monotonic() - started < 10


def test_idle_and_silent_connections_are_closed_after_the_keep_alive(server):
    with server.connect() as idle, server.connect() as silent:
        idle.sendall(b"GET /api/config HTTP/1.1\r\nHost: x\r\n\r\n")
        idle.settimeout(10)
        head = one_answer_kept_alive(idle)
        assert head.startswith("HTTP/1.1 200") and "Connection: keep-alive" in head
        assert ends_within(idle, 10) and ends_within(silent, 10)


def test_connections_past_the_bound_wait_until_one_is_free(databases, tmp_path):
    running = RunningServer(databases.new(tmp_path), tmp_path, "--threads", "1", "--max-connections", "2",
                            "--keep-alive", "2")
    try:
        silent = [running.connect(), running.connect()]
        time.sleep(0.5)  # both accepted: the worker holds as many as it may
        answered = []
        waiting = threading.Thread(target=lambda: answered.append(http_sender(running.url)("GET", "/api/config", None)))
        waiting.start()
        waiting.join(timeout=1)
        assert not answered  # the third one waits in the listen queue...
        waiting.join(timeout=15)
        assert answered and answered[0][0] == 200  # ...until the silent ones are closed
        assert all(ends_within(connection, 1) for connection in silent)
    finally:
        assert running.stop() == 0


def test_sigterm_answers_the_request_in_flight_then_stops(databases, tmp_path):
    running = RunningServer(databases.new(tmp_path), tmp_path, "--request-timeout", "30")
    body = json.dumps({"passenger": {"first_name": "Ada"}}).encode()
    with running.connect() as connection:
        connection.sendall(PASSENGER_CHECK + b"Content-Length: %d\r\n\r\n" % len(body) + body[:10])
        time.sleep(0.5)  # the server is reading the body
        running.process.send_signal(signal.SIGTERM)
        time.sleep(1)
        assert running.process.poll() is None  # waiting for the request in flight...
        connection.sendall(body[10:])  # ...which is answered
        status, answered, _ = answer(connection)
    assert status == 400 and answered["fields"]  # validated: the passenger lacks the other fields
    assert running.process.wait(timeout=30) == 0


def test_sigterm_does_not_wait_for_connections_that_sent_nothing(databases, tmp_path):
    running = RunningServer(databases.new(tmp_path), tmp_path, "--keep-alive", "30")
    silent = [running.connect() for _ in range(5)]
    try:
        time.sleep(0.5)  # the worker has taken them
        started = time.monotonic()
        running.process.send_signal(signal.SIGTERM)
        assert running.process.wait(timeout=30) == 0
        assert time.monotonic() - started < 10  # not the 30 s keep-alive
    finally:
        for connection in silent:
            connection.close()


def test_a_worker_takes_a_new_connection_only_while_it_holds_its_share():
    from types import SimpleNamespace

    from crm_app.worker_balance import ConnectionShares

    shares = ConnectionShares(2)
    first, second = SimpleNamespace(), SimpleNamespace()
    shares.assign(None, first)
    shares.assign(None, second)
    assert (first.share_slot, second.share_slot) == (0, 1)
    assert shares.may_accept(0, 1) and not shares.may_accept(0, 2)  # the other holds none yet
    assert shares.may_accept(1, 2) and shares.may_accept(0, 3)  # the fewest are now 2: one more is fair
    shares.release(None, second)  # its slot counts none until a new worker takes it
    assert not shares.may_accept(0, 3)
    third = SimpleNamespace()
    shares.assign(None, third)
    assert third.share_slot == 1 and shares.may_accept(None, 100)  # a worker without a slot is not held back


def test_the_app_works_on_one_request_at_a_time_and_each_gets_its_own_body():
    inside, most_inside, closed = [], [], []

    class Answer(list):
        def close(self):
            closed.append(True)

    def app(environ, start_response):
        inside.append(1)
        most_inside.append(len(inside))
        time.sleep(0.05)
        body = environ["wsgi.input"].read()
        inside.pop()
        return Answer([b"got ", body])

    wrapped = TakingTurns(app, body_limit=100)
    answers = {}

    def send(number: int):
        body = f"body {number}".encode()
        environ = {"CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body)}
        answers[number] = b"".join(wrapped(environ, None))

    threads = [threading.Thread(target=send, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert max(most_inside) == 1 and len(closed) == 4
    assert answers == {number: f"got body {number}".encode() for number in range(4)}


def test_turns_are_taken_in_the_order_the_requests_came():
    turn, order = FairTurn(), []

    def wait_for_turn(number: int):
        with turn:
            order.append(number)

    with turn:
        waiting = []
        for number in range(5):
            waiting.append(threading.Thread(target=wait_for_turn, args=(number,)))
            waiting[-1].start()
            while len(turn.waiting) < number + 1:  # queued before the next one comes
                time.sleep(0.001)
    for thread in waiting:
        thread.join()
    assert order == [0, 1, 2, 3, 4]
    with turn:  # free again once all had their turn
        assert not turn.waiting
