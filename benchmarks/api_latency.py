"""Median latency of the CRM's JSON API over real HTTP: python benchmarks/api_latency.py [--rounds N]."""
from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time

from crm_app.http_client import http_sender
from scenarios.app import embedded_server

BOOKING = {
    "passenger": {"title": "Ms", "first_name": "Ada", "last_name": "Byron", "email": "ada@example.com",
                  "gender": "Female", "date_of_birth": "1990-12-10"},
    "payment": {"card_number": "4111111111111111", "expiry": "04/29", "security_code": "123",
                "name_on_card": "Ada Byron"},
}


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def fetch(send, path: str, body: dict | None = None) -> dict:
    status, answer = send("GET" if body is None else "POST", path, body)
    assert status < 400, answer
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    with embedded_server(settings={"SANDBOX_BOOKINGS": 0}) as server:
        report(server.url, args.rounds)


def report(base: str, rounds: int) -> None:
    send = http_sender(base)
    days = [(dt.date(2026, 7, 1) + dt.timedelta(days=i % 300)).isoformat() for i in range(rounds)]
    first = [timed(lambda d=d: fetch(send, f"/api/flights/search?from=JFK&to=LAX&date={d}")) for d in days]
    again = [timed(lambda d=d: fetch(send, f"/api/flights/search?from=JFK&to=LAX&date={d}")) for d in days]
    flight = fetch(send, "/api/flights/search?from=JFK&to=LAX&date=2026-07-01")["flights"][0]["id"]
    booking = [timed(lambda: fetch(send, "/api/bookings", {**BOOKING, "outward_flight_id": flight}))
               for _ in range(rounds // 4)]
    tasks = ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
             "TASK_UPDATE_PASSENGER_DETAILS", "TASK_MODIFY_FLIGHT")
    scenarios = [timed(lambda i=i: fetch(send, f"/generate-random-scenario?task={tasks[i % 6]}&seed={i}"))
                 for i in range(rounds)]
    rows = [("search, route-day first seen", first), ("search, route-day stored", again),
            ("book (POST /api/bookings)", booking), ("new scenario (six tasks in turn)", scenarios)]
    print(f"{'request':32} {'median ms':>10} {'p90 ms':>8}")
    for name, samples in rows:
        p90 = statistics.quantiles(samples, n=10)[-1]
        print(f"{name:32} {statistics.median(samples):10.2f} {p90:8.2f}")
    print(f"ratio first-seen / stored search: {statistics.median(first) / statistics.median(again):.2f}")


if __name__ == "__main__":
    main()
