"""Connections that a client leaves slow, for the slow-client test and benchmark: open them, and
see which ones the server has closed, and what it sent on them."""
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
