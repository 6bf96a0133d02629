"""Every instruction names one moment the page shows: the date and time it gives for a flight pick
out exactly one row of the search results for that date, and that row is the gold flight.

The `paper` suite names the outward flight by its departure and the return flight by its arrival
(as the authors' client does: "returning on <date> at <arrival time>"); an overnight return arrives
on the next date, so "back on 04-18, arriving at 12:15am" matched no row of 04-18 (the page shows
`12:15am +1`). The `full` suite names each flight by its departure time and number.
"""
from __future__ import annotations

import pytest

from scenarios.app import create_app
from scenarios.suites import SUITES
from tests.conftest import TEST_CONFIG

SEEDS = range(200)
# (leg, which end of the flight) each suite names; with numbers, the full suite names departures.
NAMED = {"paper": (("outward", "departure"), ("return", "arrival")),
         "full": (("outward", "departure"), ("return", "departure"))}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("moments")
    app = create_app({**TEST_CONFIG, "DATABASE_URL": f"sqlite:///{folder / 'crm.db'}", "INSTANCE_PATH": str(folder)})
    return app.test_client()


def rows_at(rows: list[dict], day: str, end: str, time: str) -> list[str]:
    """Numbers of the result rows of `day` that leave (end "departure") or arrive ("arrival") on
    that date at `time`, as the page shows them (an arrival on the next date shows "+1")."""
    if end == "departure":
        return [row["number"] for row in rows if row["date"] == day and row["departure_time"] == time]
    return [row["number"] for row in rows if row["arrival_date"] == day and row["arrival_time"] == time]


def named_moments(client, suite: str, task: str, seed: int) -> list[tuple]:
    """(leg, end, date, time, rows matching, gold number) of each flight the instruction names."""
    body = client.get(f"/generate-random-scenario?task={task}&seed={seed}&suite={suite}").json
    flight, instruction = body["details"].get("flight"), body["instruction"]
    if not flight:
        return []
    found = client.get(f"/api/flights/search?from={flight['from']}&to={flight['to']}&date={flight['departure']}"
                       + (f"&return={flight['return']}" if "return" in flight else "")).json
    results = {"outward": (found["flights"], flight["departure"]),
               "return": (found.get("return_flights", []), flight.get("return"))}
    moments = []
    for leg, end in NAMED[suite]:
        time = flight.get(f"{leg}-{end}-time")
        number = flight.get(f"{leg}-flight-number")
        named = time is not None and time in instruction and (suite == "paper" or number in instruction)
        if named:
            rows, day = results[leg]
            assert day in instruction, (suite, task, seed, instruction)
            moments.append((leg, end, day, time, rows_at(rows, day, end, time), number))
    return moments


@pytest.mark.database_independent  # what is drawn, not how it is stored
@pytest.mark.parametrize("suite", ["paper", "full"])
def test_every_named_date_and_time_is_one_row_the_gold_flight(client, suite):
    wrong, named = [], 0
    for task in SUITES[suite].task_names:
        for seed in SEEDS:
            for leg, end, day, time, matching, number in named_moments(client, suite, task, seed):
                named += 1
                if matching != [number]:
                    wrong.append(f"{task} seed {seed}: {leg} {end} {day} {time} matches {matching}, gold {number}")
    assert not wrong, f"{len(wrong)} of {named} named flights are not one row:\n" + "\n".join(wrong[:20])
    assert named >= {"paper": 800, "full": 400}[suite]  # the flight-naming tasks were all looked at
