"""Median time of GET /evaluate over real HTTP on a scenario holding many recorded events:
python benchmarks/evaluate_latency.py [--events 10000] [--rounds 15].

The events are the page events of a book-flight episode played over and over (every fill, every
click with its form snapshot, card data stored protected as the server stores it), written straight
into the database so that the benchmark measures scoring, not recording. Smaller sizes are timed
in the same run, so the ratios show how the time grows with the number of events.

Two figures per size: the wall-clock median as a client sees it, and the median CPU time the
server's request thread spent (load on the machine stretches the first, hardly the second).
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

from crm_app.db import card_hasher, write_transaction
from crm_app.http_client import http_sender
from crm_app.models import Event
from crm_app.server import BackgroundServer
from scenarios.app import create_app
from scenarios.card_data import protector
from scenarios.events import clean_event
from scenarios.replay import Replay

TARGET_MS = 100
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # local server: no proxy


def page_events(gold: list[dict], scenario_id: str) -> list[dict]:
    """The events the page posts for the gold steps, as a Replay posts them (caught, not sent)."""
    posted = []

    def catch(method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        posted.append(body)
        return 201, {}

    Replay(catch, scenario_id, requests=False).play(gold)
    return posted


def store_events(app, scenario_id: str, episode: list[dict], count: int) -> None:
    with app.extensions["sessionmaker"]() as session:
        protect = protector(card_hasher(session))
        rows = [clean_event({**episode[i % len(episode)], "page": f"p{i // len(episode)}", "seq": i % len(episode) + 1},
                            protect) for i in range(count)]
        with write_transaction(session):
            session.add_all(Event(scenario_id=scenario_id, **row) for row in rows)


class ThreadCpu:
    """WSGI wrapper that notes the CPU time of the thread serving each request."""

    def __init__(self, app):
        self.app, self.samples = app, []

    def __call__(self, environ, start_response):
        start = time.thread_time()
        body = b"".join(self.app(environ, start_response))
        self.samples.append((time.thread_time() - start) * 1000)
        return [body]


def medians_ms(url: str, rounds: int, cpu: ThreadCpu) -> tuple[float, float]:
    """Median wall time from sending the request to holding the whole answer (not parsed), and
    median CPU time of the server thread."""
    wall = []
    cpu.samples.clear()
    for _ in range(rounds):
        start = time.perf_counter()
        with OPENER.open(url) as response:
            response.read()
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), statistics.median(cpu.samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    sizes = sorted({args.events // 10, args.events // 4, args.events})
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE_URL": f"sqlite:///{Path(folder) / 'crm.db'}", "INSTANCE_PATH": folder,
                          "SANDBOX_BOOKINGS": 0, "MAX_EVENTS": args.events})
        cpu = ThreadCpu(app)
        with BackgroundServer(cpu) as server:
            send = http_sender(server.url, headers={"X-Operator-Token": app.config["OPERATOR_TOKEN"]})
            results = []
            for size in sizes:
                status, scenario = send("GET", "/generate-random-scenario?task=TASK_BOOK_FLIGHT&seed=1", None)
                assert status == 200, scenario
                gold = send("GET", f"/evaluate?scenario={scenario['id']}", None)[1]["gold_actions"]
                store_events(app, scenario["id"], page_events(gold, scenario["id"]), size)
                results.append((size, *medians_ms(f"{server.url}/evaluate?scenario={scenario['id']}", args.rounds, cpu)))
    print(f"load average before/after: {load[0]:.1f} / {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'events':>8} {'median ms':>10} {'server CPU ms':>14} {'CPU ms per 1,000 events':>24}")
    for size, wall, used in results:
        print(f"{size:8,} {wall:10.1f} {used:14.1f} {used / size * 1000:24.2f}")
    (small, _, small_cpu), (size, wall, used) = results[0], results[-1]
    print(f"/evaluate at {size:,} events: median {wall:.1f} ms (target < {TARGET_MS} ms, ratio {wall / TARGET_MS:.2f}), "
          f"server CPU {used:.1f} ms; {size // small}x the events took {used / small_cpu:.1f}x the CPU time")


if __name__ == "__main__":
    main()
