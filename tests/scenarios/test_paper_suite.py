"""The scenario suite `paper` (scenarios/suites.py) for outside clients such as the papers' own:
run.py --suite paper / CRM_SUITE=paper / ?suite=paper serve the papers' five tasks with return trips
only, every scenario carries each key the authors' client reads, /api/config names the suite, and a
database made before the suite existed gets its column."""
from __future__ import annotations

import json
import re
import urllib.request

import pytest
from sqlalchemy import text

from scenarios.app import create_app
from scenarios.suites import PAPER_INSTRUCTIONS
from tests.conftest import OPERATOR, TEST_CONFIG
from tests.scenarios.run_py import run_py

PAPER_TASKS = ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
               "TASK_UPDATE_PASSENGER_DETAILS")
# What the authors' client (webagents-step, generate_context_airlinecrm.py) reads of each task.
FLIGHT_KEYS = {"from", "to", "departure", "return", "outward-departure-time", "return-arrival-time"}
PASSENGER_KEYS = {"title", "firstname", "lastname", "gender", "dob", "email"}
CARD_KEYS = {"card-number", "expiry", "security_code", "name-on-card"}


@pytest.fixture
def paper_client(tmp_path):
    app = create_app({**TEST_CONFIG, "SUITE": "paper", "DATABASE_URL": f"sqlite:///{tmp_path / 'crm.db'}",
                      "INSTANCE_PATH": str(tmp_path / "instance")})
    return app.test_client()


@pytest.mark.database_independent  # what is drawn, not how it is stored
def test_a_hundred_scenarios_carry_what_the_authors_client_reads_and_none_is_one_way(paper_client):
    for task in PAPER_TASKS:
        for seed in range(20):
            body = paper_client.get(f"/generate-random-scenario?task={task}&seed={seed}").json
            details = body["details"]
            assert body["scenario"] == task and re.fullmatch(r"[a-z0-9]{20}", body["id"])
            if task in ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT"):
                assert FLIGHT_KEYS <= set(details["flight"]), (task, seed)
                assert "CR" not in body["instruction"]  # flights named by their times, not numbers
                assert details["flight"]["outward-departure-time"] in body["instruction"]
                assert details["flight"]["return-arrival-time"] in body["instruction"]
            if task == "TASK_BOOK_FLIGHT":
                assert set(details["passenger"]) == PASSENGER_KEYS and CARD_KEYS <= set(details["payment-details"])
            if task in ("TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT", "TASK_UPDATE_PASSENGER_DETAILS"):
                code = details["confirmation-code"]
                booking = paper_client.get(f"/api/bookings/{code}?scenario={body['id']}").json["booking"]
                assert booking["trip_type"] == "return", (task, seed)  # the booking it starts from, too
            if task == "TASK_UPDATE_PASSENGER_DETAILS":
                assert details["passenger"] and set(details["passenger"]) <= PASSENGER_KEYS


def test_the_return_flight_is_the_only_one_arriving_at_its_time(paper_client):
    """The instruction names the return flight by its arrival time, so no other flight of that day
    may arrive then. On seed 167's return day two flights arrive at the same minute; the draw
    avoids them."""
    flight = paper_client.get("/generate-random-scenario?task=TASK_FIND_FLIGHT&seed=167").json["details"]["flight"]
    found = paper_client.get(f"/api/flights/search?from={flight['from']}&to={flight['to']}"
                             f"&date={flight['departure']}&return={flight['return']}").json
    arrivals = [f["arrival_time"] for f in found["return_flights"]]
    assert len(set(arrivals)) < len(arrivals)  # the day has a shared arrival time
    assert arrivals.count(flight["return-arrival-time"]) == 1, arrivals


def test_without_a_task_the_seed_picks_one_of_the_five(paper_client):
    picked = {paper_client.get(f"/get-random-scenario?seed={seed}").json["scenario"] for seed in range(40)}
    assert picked == set(PAPER_TASKS)


def test_a_task_outside_the_suite_is_refused(paper_client):
    response = paper_client.get("/generate-random-scenario?task=TASK_MODIFY_FLIGHT&seed=1")
    assert response.status_code == 400
    assert response.json["error"] == ("TASK_MODIFY_FLIGHT is not in the paper suite; choose one of "
                                      + ", ".join(PAPER_TASKS))


def test_api_config_names_the_suite(client, paper_client):
    assert client.get("/api/config").json["suite"] == "full"
    assert paper_client.get("/api/config").json["suite"] == "paper"


def test_a_request_can_ask_for_a_suite(client):
    """?suite=paper on a full server (what `python -m agent run --protocol paper --server` sends)."""
    full = client.get("/generate-random-scenario?task=TASK_FIND_FLIGHT&seed=5").json
    paper = client.get("/generate-random-scenario?task=TASK_FIND_FLIGHT&seed=5&suite=paper").json
    assert full["instruction"] != paper["instruction"] and "return" in paper["details"]["flight"]
    assert paper["instruction"] == PAPER_INSTRUCTIONS["TASK_FIND_FLIGHT"][0].format(
        from_code=paper["details"]["flight"]["from"], to_code=paper["details"]["flight"]["to"],
        out_date=paper["details"]["flight"]["departure"], back_date=paper["details"]["flight"]["return"],
        out_time=paper["details"]["flight"]["outward-departure-time"],
        back_time=paper["details"]["flight"]["return-arrival-time"])
    again = client.get("/generate-random-scenario?task=TASK_FIND_FLIGHT&seed=5&suite=PAPER").json
    assert (again["instruction"], again["details"]) == (paper["instruction"], paper["details"])
    refused = client.get("/generate-random-scenario?suite=short")
    assert refused.status_code == 400 and refused.json["error"] == "Unknown suite: short. Choose one of full, paper, hard, expert"


def test_a_paper_scenario_is_scored_and_reset_as_a_paper_scenario(client):
    """The suite is stored with the scenario: /evaluate draws the same (return) trip again and
    /reset-scenario answers the same paper wording."""
    body = client.get("/generate-random-scenario?task=TASK_FIND_FLIGHT&seed=3&suite=paper").json
    gold = client.get(f"/evaluate?scenario={body['id']}", headers=OPERATOR).json["gold_actions"]
    assert [step["target"] for step in gold] == ["search-from", "search-to", "search-depart", "search-return",
                                                 "search-submit"]
    assert gold[3]["value"] == body["details"]["flight"]["return"]
    reset = client.get(f"/reset-scenario?scenario={body['id']}").json
    assert (reset["instruction"], reset["details"]) == (body["instruction"], body["details"])


def test_crm_suite_sets_the_suite_and_an_unknown_one_stops_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("CRM_SUITE", "paper")
    app = create_app({**TEST_CONFIG, "DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"})
    assert app.test_client().get("/api/config").json["suite"] == "paper"
    with pytest.raises(ValueError, match="Unknown suite: tiny. Choose one of full, paper"):
        create_app({**TEST_CONFIG, "SUITE": "tiny", "DATABASE_URL": f"sqlite:///{tmp_path / 'b.db'}"})


def test_a_database_made_before_suites_gets_the_column(tmp_path):
    config = {**TEST_CONFIG, "DATABASE_URL": f"sqlite:///{tmp_path / 'old.db'}", "INSTANCE_PATH": str(tmp_path)}
    app = create_app(config)
    made = app.test_client().get("/generate-random-scenario?task=TASK_FIND_BOOKING&seed=2").json
    with app.extensions["engine"].begin() as connection:
        connection.execute(text("ALTER TABLE scenarios DROP COLUMN suite"))  # as an older version made it
    app.extensions["engine"].dispose()
    again = create_app(config).test_client()
    assert again.get(f"/evaluate?scenario={made['id']}").status_code == 200  # an old scenario is a full one
    assert again.get(f"/reset-scenario?scenario={made['id']}").json["instruction"] == made["instruction"]


def test_run_py_serves_the_suite_it_is_given(tmp_path):
    with run_py(tmp_path, "--suite", "paper") as (lines, url):
        assert any(line.startswith("Scenario suite: paper (") for line in lines), lines
        with urllib.request.urlopen(f"{url}/api/config", timeout=10) as answer:
            assert json.loads(answer.read())["suite"] == "paper"
        with urllib.request.urlopen(f"{url}/generate-random-scenario?seed=9", timeout=30) as answer:
            assert json.loads(answer.read())["scenario"] in PAPER_TASKS
