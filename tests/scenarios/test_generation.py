"""Generated scenarios: reproducible across processes, and valid by construction, in bulk."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scenarios.tasks import TASKS

ROOT = Path(__file__).resolve().parents[2]

PRINT_SCENARIOS = """
import json, sys
from scenarios.app import create_app
app = create_app({"SANDBOX_BOOKINGS": 0, "DATABASE_URL": sys.argv[1]})
client = app.test_client()
out = []
for task in sys.argv[2:]:
    for seed in (0, 77, 123456):
        body = client.get(f"/generate-random-scenario?task={task}&seed={seed}").json
        out.append({key: body[key] for key in ("scenario", "seed", "instruction", "conversation", "details")})
print(json.dumps(out))
"""


def _scenarios_in_new_process(hash_seed: str, database_url: str) -> list[dict]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", PRINT_SCENARIOS, database_url, *TASKS], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def test_same_task_and_seed_give_the_same_scenario_in_two_processes(client, databases, tmp_path):
    # On two databases: the tests' kind, and a SQLite file (on a PostgreSQL run, the other kind).
    first = _scenarios_in_new_process("1", databases.new(tmp_path, "first"))
    second = _scenarios_in_new_process("2", f"sqlite:///{tmp_path / 'second.db'}")
    assert len(first) == 18
    assert first == second
    here = client.get("/generate-random-scenario?task=TASK_BOOK_FLIGHT&seed=77").json
    assert {k: here[k] for k in ("instruction", "conversation", "details")} == \
        {k: first[4][k] for k in ("instruction", "conversation", "details")}
    assert len({json.dumps(s["details"]) for s in first}) == 18  # and different seeds differ


def _check_flights(client, flight: dict) -> None:
    """The flights the details name are offered on those dates, at those (unique) times."""
    found = client.get(f"/api/flights/search?from={flight['from']}&to={flight['to']}&date={flight['departure']}"
                       + (f"&return={flight['return']}" if "return" in flight else "")).json
    lists = {"outward": found["flights"], "return": found.get("return_flights", [])}
    for direction in ("outward", "return") if "return" in flight else ("outward",):
        at_time = [f for f in lists[direction] if f["departure_time"] == flight[f"{direction}-departure-time"]]
        assert [f["number"] for f in at_time] == [flight[f"{direction}-flight-number"]]
        assert at_time[0]["arrival_time"] == flight[f"{direction}-arrival-time"]


def _check_scenario(client, body: dict) -> None:
    details, scenario_id = body["details"], body["id"]
    if "flight" in details:
        _check_flights(client, details["flight"])
    if "confirmation-code" in details:
        found = client.get(f"/api/bookings/{details['confirmation-code']}?scenario={scenario_id}")
        assert found.status_code == 200
        booking = found.json["booking"]
        if body["scenario"] == "TASK_MODIFY_FLIGHT":
            old = {f["direction"]: f["date"] for f in booking["flights"]}
            new = details["flight"]
            assert ("return" in old) == ("return" in new)
            assert old["outward"] != new["departure"]
            assert "return" not in old or old["return"] != new["return"]
            assert (booking["flights"][0]["from"], booking["flights"][0]["to"]) == (new["from"], new["to"])
        if body["scenario"] == "TASK_UPDATE_PASSENGER_DETAILS":
            current = booking["passenger"]
            names = {"firstname": "first_name", "lastname": "last_name", "dob": "date_of_birth"}
            assert 1 <= len(details["passenger"]) <= 3
            for key, value in details["passenger"].items():
                assert current[names.get(key, key)] != value


@pytest.mark.database_independent  # what is drawn, not how it is stored: the SQLite pass checks it
def test_a_thousand_scenarios_are_valid(client):
    tasks = list(TASKS)
    started = time.perf_counter()
    bodies = [client.get(f"/generate-random-scenario?task={tasks[i % 6]}&seed={i}").json for i in range(1000)]
    generating = time.perf_counter() - started
    for body in bodies:
        _check_scenario(client, body)
    checking = time.perf_counter() - started - generating
    print(f"\n1000 scenarios generated in {generating:.1f}s, checked in {checking:.1f}s")  # speed: benchmarks/api_latency.py
    assert len({b["id"] for b in bodies}) == 1000
    assert {b["scenario"] for b in bodies} == set(TASKS)
    one_way = sum("flight" in b["details"] and "return" not in b["details"]["flight"] for b in bodies)
    assert 0 < one_way < 1000
