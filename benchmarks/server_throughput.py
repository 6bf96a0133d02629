"""Throughput of the server under closed-loop clients, each playing book-flight episodes through
the JSON API in a scenario of its own (reset, airport lookup, search, quote, passenger check,
booking, booking lookup, evaluation: 8 requests, each recorded in the scenario):
python benchmarks/server_throughput.py [--clients 60] [--seconds 20] [--warmup 5] [--old REV]

The servers, measured in one run, each started as its own process as a user would start it:
  werkzeug        Werkzeug's threaded development server on SQLite (what run.py used before)
  sqlite          python run.py on SQLite (gunicorn, 1 worker)
  postgresql x2   python run.py --workers 2 on PostgreSQL (a throw-away server on this machine,
                  synchronous_commit=off: commits are not flushed one by one, as SQLite's WAL mode
                  with synchronous=NORMAL); --threads N sets its threads per worker (default: the
                  server's own)
  granian x2      granian (a Rust HTTP server with a WSGI interface) serving the same app with 2
                  worker processes on the same PostgreSQL, --granian-threads Python threads each
                  (default 1)
  old x2          with --old REV: run.py --workers 2 of that git revision (a worktree made for the
                  run), on the same PostgreSQL
The clients run in a process of their own: asyncio, one kept-alive connection each, on loopback;
they start one after another over the first half of the warm-up (a ramp-up), so they are not in
lock-step.
Printed per server: requests/s, p50 and p99 latency, errors; then the ratios.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.postgres_cluster import DURABLE_ENOUGH, TemporaryCluster  # noqa: E402

TARGET_RPS, TARGET_P99_MS = 300, 250
TASK = "TASK_BOOK_FLIGHT"
DEVELOPMENT_SERVER = """
import sys
from werkzeug.serving import make_server
from crm_app.server import QuietRequestHandler
from scenarios.app import create_app
app = create_app({"DATABASE_URL": sys.argv[1], "INSTANCE_PATH": sys.argv[2]})
server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietRequestHandler)
print("Operator token: (development server)", flush=True)
print(f"AirlineCRM is serving at http://127.0.0.1:{server.server_port}/", flush=True)
server.serve_forever()
"""


# ---- the clients (in their own process) ----

class Connection:
    """One kept-alive HTTP/1.1 connection: JSON in, (status, JSON) out."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        for attempt in (1, 2):  # a connection the server closed meanwhile is opened again, once
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            try:
                return await self._exchange(method, path, body)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise

    async def _exchange(self, method: str, path: str, body: dict | None) -> tuple[int, dict]:
        data = b"" if body is None else json.dumps(body).encode()
        self.writer.write(f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
        answer = json.loads(await self.reader.readexactly(length))
        if re.search(rb"(?i)connection: *close", head):
            self.close()
        return int(head.split(b" ", 2)[1]), answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Client:
    """Plays book-flight episodes in its own scenario, timing every request."""

    def __init__(self, connection: Connection, seed: int, clock: dict, start_after: float):
        self.connection, self.seed, self.clock, self.start_after = connection, seed, clock, start_after
        self.latencies: list[float] = []
        self.errors: list[str] = []

    async def send(self, method: str, path: str, body: dict | None = None) -> dict:
        started = time.perf_counter()
        status, answer = await self.connection.request(method, path, body)
        finished = time.perf_counter()
        if self.clock["start"] <= started and finished <= self.clock["end"]:
            self.latencies.append(finished - started)
            if status >= 500 or status not in (200, 201):
                self.errors.append(f"{status} {method} {path.split('?')[0]}: {answer}")
        return answer

    async def run(self) -> None:
        await asyncio.sleep(self.start_after)
        scenario = (await self.connection.request("GET", f"/generate-random-scenario?task={TASK}&seed={self.seed}"))[1]
        while time.perf_counter() < self.clock["end"]:
            await self.episode(scenario["id"], scenario["details"])
        self.connection.close()

    async def episode(self, scenario: str, details: dict) -> None:
        within = f"scenario={scenario}"
        flight, person, card = details["flight"], details["passenger"], details["payment-details"]
        await self.send("GET", f"/reset-scenario?{within}")
        await self.send("GET", f"/api/airports?q={flight['from']}&{within}")
        back_day = f"&return={flight['return']}" if "return" in flight else ""
        found = await self.send("GET", f"/api/flights/search?from={flight['from']}&to={flight['to']}"
                                       f"&date={flight['departure']}{back_day}&{within}")
        outward = _at(found.get("flights", []), flight["outward-departure-time"])
        back = _at(found.get("return_flights", []), flight.get("return-departure-time"))
        await self.send("GET", f"/api/quote?outward={outward}" + (f"&return={back}" if back else "") + f"&{within}")
        passenger = {"title": person["title"], "first_name": person["firstname"], "last_name": person["lastname"],
                     "gender": person["gender"], "date_of_birth": person["dob"], "email": person["email"]}
        await self.send("POST", f"/api/passenger/validate?{within}", {"passenger": passenger})
        payment = {"card_number": card["card-number"], "expiry": card["expiry"],
                   "security_code": card["security_code"], "name_on_card": card["name-on-card"]}
        booked = await self.send("POST", f"/api/bookings?{within}", {"outward_flight_id": outward,
                                 "return_flight_id": back, "passenger": passenger, "payment": payment})
        await self.send("GET", f"/api/bookings/{booked.get('booking', {}).get('code', 'NONE00')}?{within}")
        await self.send("GET", f"/evaluate?{within}")


def _at(flights: list[dict], departure_time: str):
    return next((f["id"] for f in flights if f["departure_time"] == departure_time), None)


def address(url: str) -> tuple[str, int]:
    """(host, port) of a server's http://host:port/ URL."""
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    return host, int(port)


async def _drive(url: str, clients: int, warmup: float, seconds: float) -> dict:
    host, port = address(url)
    now = time.perf_counter()
    clock = {"start": now + warmup, "end": now + warmup + seconds}
    # The clients start one after another over half the warm-up, as load tools ramp up: started at once,
    # closed-loop clients served in turn stay in lock-step for good, every request then waits behind
    # the others' copies of the same step, and the slowest step alone sets the p99.
    players = [Client(Connection(host, port), seed, clock, warmup / 2 * seed / clients) for seed in range(clients)]
    await asyncio.gather(*(player.run() for player in players))
    latencies = sorted(latency for player in players for latency in player.latencies)
    return {"requests": len(latencies), "seconds": seconds, "latencies": latencies,
            "errors": [error for player in players for error in player.errors]}


def drive(url: str, clients: int, warmup: float, seconds: float) -> dict:
    """Run the clients against `url` (in the calling process) and gather what they measured."""
    return asyncio.run(_drive(url, clients, warmup, seconds))


# ---- the servers ----

class ServerProcess:
    """A server in a process of its own; `url` is where it answers once it has started (it says
    so: "serving at <url>/")."""

    def __init__(self, command: list[str], cwd: Path = ROOT, env: dict | None = None):
        self.process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True)
        for line in self.process.stdout:
            found = re.search(r"serving at (http://[\d.]+:\d+)/", line)
            if found:
                self.url = found.group(1)
                break
        else:
            raise RuntimeError(f"{command} did not start")
        self._wait_until_answering()
        time.sleep(1)  # every worker boots

    def _wait_until_answering(self, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/api/config", timeout=5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{self.url} did not answer within {seconds:g} s") from None
                time.sleep(0.1)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


# granian says where it listens only in its log; this says it as run.py does, then serves.
GRANIAN_SERVER = """
import socket, sys
from granian import Granian
from granian.constants import Interfaces
from granian.http import HTTP1Settings
workers, threads, header_seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
print(f"AirlineCRM is serving at http://127.0.0.1:{port}/", flush=True)
Granian("benchmarks.granian_app:app", address="127.0.0.1", port=port, interface=Interfaces.WSGI, workers=workers,
        blocking_threads=threads, http1_settings=HTTP1Settings(header_read_timeout=int(header_seconds * 1000)),
        log_enabled=False).serve()
"""


def granian_server(python: str, database_url: str, instance: Path, workers: int, threads: int,
                   header_seconds: float = 30) -> ServerProcess:
    """granian serving the CRM app (benchmarks/granian_app.py) on `database_url`; `header_seconds`
    is how long it waits for a request's head (its default, 30)."""
    environment = {**os.environ, "DATABASE_URL": database_url, "CRM_INSTANCE_PATH": str(instance)}
    return ServerProcess([python, "-c", GRANIAN_SERVER, str(workers), str(threads), str(header_seconds)],
                         env=environment)


@contextmanager
def worktree(revision: str):
    """A checkout of `revision` in a temporary folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="crm-old-") as folder:
        subprocess.run(["git", "worktree", "add", "--detach", folder, revision], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            yield Path(folder)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", folder], cwd=ROOT, capture_output=True)


def measure(name: str, server: ServerProcess, args, pool) -> dict:
    with server:
        result = pool.submit(drive, server.url, args.clients, args.warmup, args.seconds).result()
    latencies = result["latencies"]
    summary = {"name": name, "rps": result["requests"] / result["seconds"],
               "p50": 1000 * statistics.median(latencies), "p99": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
               "errors": result["errors"]}
    print(f"{name:15} {summary['rps']:10.0f} {summary['p50']:8.1f} {summary['p99']:8.1f} {len(summary['errors']):7}",
          flush=True)
    for error in summary["errors"][:3]:
        print(f"    {error[:200]}")
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=20, help="measured time per server (default 20)")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured time first (default 5)")
    parser.add_argument("--threads", type=int, help="threads per worker of the PostgreSQL server "
                                                     "(default: run.py's default)")
    parser.add_argument("--granian-threads", type=int, default=1,
                        help="granian's Python threads per worker (default 1: one request at a time in the "
                             "app per process, as run.py)")
    parser.add_argument("--old", metavar="REV", help="also measure run.py --workers 2 of this git revision")
    parser.add_argument("--only", choices=("werkzeug", "sqlite", "postgresql", "granian", "old"), action="append",
                        help="measure only these servers (default: all; old only with --old)")
    args = parser.parse_args()
    only = set(args.only or ("werkzeug", "sqlite", "postgresql", "granian", "old"))
    if not args.old:
        only.discard("old")
    python = sys.executable
    load = os.getloadavg()
    print(f"{args.clients} clients, {args.warmup:g} s warm-up + {args.seconds:g} s measured per server; "
          f"{os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} before the run")
    print(f"{'server':15} {'requests/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    results = {}
    with tempfile.TemporaryDirectory(prefix="crm-bench-") as folder, \
            ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        pool.submit(time.sleep, 0).result()  # the client process is up before any timing
        folder = Path(folder)
        if "werkzeug" in only:
            results["werkzeug"] = measure("werkzeug", ServerProcess(
                [python, "-c", DEVELOPMENT_SERVER, f"sqlite:///{folder}/w.db", str(folder)]), args, pool)
        if "sqlite" in only:
            results["sqlite"] = measure("sqlite", ServerProcess(
                [python, "run.py", "--port", "0", "--db", f"sqlite:///{folder}/s.db"]), args, pool)
        if only & {"postgresql", "granian", "old"}:
            with TemporaryCluster(settings=DURABLE_ENOUGH) as cluster:
                threads = ["--threads", str(args.threads)] if args.threads else []
                run_py = [python, "run.py", "--port", "0", "--workers", "2", *threads]
                if "postgresql" in only:
                    results["postgresql"] = measure("postgresql x2", ServerProcess(
                        [*run_py, "--db", cluster.create_database("crm")]), args, pool)
                if "granian" in only:
                    results["granian"] = measure(f"granian x2 t{args.granian_threads}", granian_server(
                        python, cluster.create_database("crm_granian"), folder / "granian", 2, args.granian_threads),
                        args, pool)
                if "old" in only:
                    with worktree(args.old) as old_tree:
                        results["old"] = measure(f"old x2 {args.old[:10]}", ServerProcess(
                            [*run_py, "--db", cluster.create_database("crm_old")], cwd=old_tree), args, pool)
    print_ratios(results, args)


def print_ratios(results: dict, args) -> None:
    pairs = [("sqlite", "werkzeug"), ("postgresql", "sqlite"), ("postgresql", "werkzeug"), ("postgresql", "granian"),
             ("postgresql", "old")]
    for new, old in pairs:
        if new in results and old in results:
            a, b = results[new], results[old]
            print(f"ratio {a['name']} / {b['name']}: requests/s {a['rps'] / b['rps']:.2f}, "
                  f"p99 {a['p99'] / b['p99']:.2f}")
    if "postgresql" in results:
        best = results["postgresql"]
        met = best["rps"] >= TARGET_RPS and best["p99"] < TARGET_P99_MS
        threads = f"{args.threads} thread(s) each" if args.threads else "default threads"
        print(f"target (postgresql x2, {threads}: at least {TARGET_RPS} requests/s, p99 under {TARGET_P99_MS} ms): "
              f"{'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
