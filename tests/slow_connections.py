"""Connections as the tests and benchmarks of run.py's server use them: slow ones (opened, then
checked for which the server has closed and what it sent on them) and a normal request beside them."""
from __future__ import annotations

import socket
import time


def open_slow(address: tuple[str, int], count: int, first_bytes: bytes) -> list[socket.socket]:
    """`count` connections that each sent `first_bytes` (maybe nothing) and nothing more."""
    connections = []
    for _ in range(count):
        connection = socket.create_connection(address, timeout=30)
        if first_bytes:
            connection.sendall(first_bytes)
        connections.append(connection)
    return connections


def closed_by(connections: list[socket.socket], deadline: float) -> tuple[int, list[bytes]]:
    """How many of `connections` the server has closed (or reset) by `deadline` (a time.monotonic()
    value), and what it sent on each."""
    closed, answers = 0, []
    for connection in connections:
        connection.settimeout(max(deadline - time.monotonic(), 0.01))
        received = b""
        try:
            while chunk := connection.recv(65536):
                received += chunk
            closed += 1
        except ConnectionResetError:
            closed += 1
        except TimeoutError:
            pass
        answers.append(received)
    return closed, answers


def ends_within(connection: socket.socket, seconds: float) -> bool:
    """Whether the server closes (or resets) the connection within `seconds`, reading whatever it
    still sends."""
    return closed_by([connection], time.monotonic() + seconds)[0] == 1


def normal_request(address: tuple[str, int]) -> tuple[float, bytes]:
    """A normal request on a new connection: the seconds until its answer had come in full (the
    server closes the connection after it), and the answer."""
    started = time.monotonic()
    with socket.create_connection(address, timeout=30) as connection:
        connection.sendall(b"GET /api/airports?q=JFK HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return time.monotonic() - started, answer
