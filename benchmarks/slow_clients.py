"""What slow clients do to a server: with N connections that sent half a request (or nothing),
how long a normal request on a new connection takes, and how many of the slow connections the
server has closed by the end of its request time-out, and what it told them:
python benchmarks/slow_clients.py [--clients 1000] [--old REV]

The servers, each on SQLite as a user starts it, measured in one run:
  run.py          python run.py with its defaults (gunicorn, 1 worker of 8 threads, 10 s request
                  time-out, 5 s keep-alive)
  granian         granian (a Rust HTTP server with a WSGI interface) serving the same app, 1 worker
                  of 1 Python thread, its header read time-out set to run.py's request time-out
  old             with --old REV: run.py of that git revision
Printed per server and kind of slow client: the normal request's latency (median of 3; "none"
when it got no answer within 30 s), and the slow connections closed within the request
time-out + 3 s, with how many of them got an answer (a 408).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.server_throughput import ServerProcess, address, granian_server, worktree  # noqa: E402
from crm_app.production_server import ServerOptions  # noqa: E402
from tests.slow_connections import closed_by, normal_request, open_slow  # noqa: E402

HALF_A_REQUEST = b"GET /api/airports?q=JF HT"
TIMEOUT = ServerOptions().request_timeout


def timed_normal_request(url: str) -> float | None:
    """Seconds until a normal request on a new connection was answered with a 200; None when it
    was not, or not within 30 s."""
    try:
        seconds, answer = normal_request(address(url))
    except OSError:
        return None
    return seconds if answer.startswith(b"HTTP/1.1 200") else None


def slow_clients(url: str, clients: int, first_bytes: bytes) -> dict:
    connections = []
    try:
        connections = open_slow(address(url), clients, first_bytes)
        opened = time.monotonic()
        latencies = [timed_normal_request(url) for _ in range(3)]
        answered = [latency for latency in latencies if latency is not None]
        closed, answers = closed_by(connections, opened + TIMEOUT + 3)
        return {"median": statistics.median(answered) if len(answered) == len(latencies) else None,
                "closed": closed, "told": sum(answer.startswith(b"HTTP/1.1 408") for answer in answers)}
    finally:
        for connection in connections:
            connection.close()


def report(name: str, server: ServerProcess, clients: int) -> None:
    for kind, first_bytes in (("half-open", HALF_A_REQUEST), ("silent", b"")):
        found = slow_clients(server.url, clients, first_bytes)
        latency = "none" if found["median"] is None else f"{1000 * found['median']:.0f} ms"
        print(f"{name:12} {kind:10} {latency:>16} {found['closed']:>6} / {clients} {found['told']:>7}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--old", metavar="REV", help="also measure run.py of this git revision")
    args = parser.parse_args()
    python = sys.executable
    print(f"{args.clients} slow clients per server and kind; request time-out {TIMEOUT:g} s; {os.cpu_count()} cores")
    print(f"{'server':12} {'clients':10} {'normal request':>16} {'closed':>13} {'got 408':>7}")
    with tempfile.TemporaryDirectory(prefix="crm-slow-") as folder:
        folder = Path(folder)
        with ServerProcess([python, "run.py", "--port", "0", "--db", f"sqlite:///{folder}/new.db"]) as server:
            report("run.py", server, args.clients)
        with granian_server(python, f"sqlite:///{folder}/granian.db", folder / "granian", 1, 1, TIMEOUT) as server:
            report("granian", server, args.clients)
        if args.old:
            with worktree(args.old) as old_tree, ServerProcess(
                    [python, "run.py", "--port", "0", "--db", f"sqlite:///{folder}/old.db"], cwd=old_tree) as server:
                report(f"old {args.old[:7]}", server, args.clients)

if __name__ == "__main__":
    main()
