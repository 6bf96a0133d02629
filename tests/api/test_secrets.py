"""Secrets outside the database: the operator token and the key of the keyed card hashes, made once
per instance folder even when processes start together; card data in the database needs the key."""
from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

from crm_app.instance_secrets import stored_secret
from crm_app.models import Scenario
from scenarios.app import create_app
from scenarios.replay import Replay, client_sender
from tests.conftest import OPERATOR, TEST_CONFIG

ROOT = Path(__file__).resolve().parents[2]


def _make(path, barrier, results):
    barrier.wait()
    results.put(stored_secret(path))


def test_a_new_secret_can_follow_an_option_on_a_command_line(tmp_path):
    made = [stored_secret(tmp_path / str(number) / "operator_token") for number in range(40)]
    assert len(set(made)) == 40
    assert all(len(token) == 64 and token.isalnum() for token in made)  # never a leading '-'


def test_processes_starting_together_on_a_fresh_folder_share_one_secret(tmp_path):
    context = multiprocessing.get_context("fork")
    count = 8
    barrier, results = context.Barrier(count), context.Queue()
    path = tmp_path / "fresh" / "secret_key"
    workers = [context.Process(target=_make, args=(path, barrier, results)) for _ in range(count)]
    for worker in workers:
        worker.start()
    found = {results.get(timeout=30) for _ in workers}
    for worker in workers:
        worker.join(timeout=30)
    assert len(found) == 1 and path.read_text().strip() == found.pop()
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert [p.name for p in path.parent.iterdir()] == ["secret_key"]  # no temporary file left behind


def _app(database_url, tmp_path, instance="instance", **config):
    return create_app({**TEST_CONFIG, "DATABASE_URL": database_url,
                       "INSTANCE_PATH": str(tmp_path / instance), **config})


def test_without_settings_the_secrets_are_made_in_the_instance_folder_and_kept(database_url, tmp_path, monkeypatch):
    monkeypatch.delenv("CRM_OPERATOR_TOKEN")
    first = _app(database_url, tmp_path)
    token, key = first.config["OPERATOR_TOKEN"], first.config["SECRET_KEY"]
    assert len(token) >= 40 and len(key) >= 40 and token != key
    assert (tmp_path / "instance" / "operator_token").read_text().strip() == token
    again = _app(database_url, tmp_path)
    assert (again.config["OPERATOR_TOKEN"], again.config["SECRET_KEY"]) == (token, key)
    assert _app(database_url, tmp_path, "elsewhere").config["OPERATOR_TOKEN"] != token


def test_environment_variables_win(database_url, tmp_path, monkeypatch):
    monkeypatch.setenv("CRM_OPERATOR_TOKEN", "from-the-environment")
    monkeypatch.setenv("CRM_SECRET_KEY", "key-from-the-environment")
    app = _app(database_url, tmp_path)
    assert (app.config["OPERATOR_TOKEN"], app.config["SECRET_KEY"]) == ("from-the-environment", "key-from-the-environment")
    assert not (tmp_path / "instance" / "operator_token").exists()
    client = app.test_client()
    scenario = client.get("/generate-random-scenario?task=TASK_FIND_BOOKING&seed=1").json
    answer = client.get(f"/evaluate?scenario={scenario['id']}", headers={"X-Operator-Token": "from-the-environment"})
    assert answer.json["gold_actions"][1]["value"] == scenario["details"]["confirmation-code"]


def test_run_py_prints_the_operator_token(database_url, tmp_path):
    environment = {**os.environ, "CRM_INSTANCE_PATH": str(tmp_path / "instance")}
    environment.pop("CRM_OPERATOR_TOKEN")
    server = subprocess.Popen([sys.executable, "run.py", "--port", "0", "--db", database_url],
                              cwd=ROOT, env=environment, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
    finally:
        server.terminate()
        server.wait(timeout=10)
    token = (tmp_path / "instance" / "operator_token").read_text().strip()
    assert line.startswith("Operator token") and f": {token}  (kept in {tmp_path / 'instance'}" in line


def test_stored_card_hash_is_keyed_and_the_database_alone_cannot_name_the_card(database_url, tmp_path):
    """Rule 6: the bookings' card hash is an HMAC with the secret key, not a salted SHA-256."""
    app = _app(database_url, tmp_path)
    client = app.test_client()
    scenario = client.get("/generate-random-scenario?task=TASK_BOOK_FLIGHT&seed=3").json
    gold = client.get(f"/evaluate?scenario={scenario['id']}", headers=OPERATOR).json["gold_actions"]
    Replay(client_sender(client), scenario["id"]).play(gold)
    assert client.get(f"/evaluate?scenario={scenario['id']}").json["success"] == 1
    number = scenario["details"]["payment-details"]["card-number"]
    with app.extensions["engine"].connect() as connection:
        salt, stored = connection.exec_driver_sql(
            "SELECT card_salt, card_hash FROM payments JOIN bookings ON bookings.id = payments.booking_id "
            f"WHERE dataset = '{scenario['id']}'").one()
    assert stored != hashlib.sha256(f"{salt}:{number}".encode()).hexdigest()
    assert stored == app.extensions["card_hasher"].digest("payment", f"{salt}:{number}")
    other_key = _app(database_url, tmp_path, "other-instance").test_client()  # the same database, another secret key
    reason = other_key.get(f"/evaluate?scenario={scenario['id']}").json["state_check"]["reason"]
    assert reason == f"the new booking: card number is none, expected '{number}'"


def test_the_scenarios_table_keeps_no_card_data_but_answers_carry_the_details(database_url, tmp_path):
    app = _app(database_url, tmp_path)
    client = app.test_client()
    scenario = client.get("/generate-random-scenario?task=TASK_BOOK_FLIGHT&seed=4").json
    card = scenario["details"]["payment-details"]
    with app.extensions["sessionmaker"]() as session:
        stored = session.get(Scenario, scenario["id"]).details
    assert stored["payment-details"] == {"card-number": "****" + card["card-number"][-4:], "expiry": card["expiry"],
                                         "name-on-card": card["name-on-card"]}
    assert {k: v for k, v in stored.items() if k != "payment-details"} == \
        {k: v for k, v in scenario["details"].items() if k != "payment-details"}
    reset = client.get(f"/reset-scenario?scenario={scenario['id']}").json
    assert reset["details"] == scenario["details"]


def test_a_hard_scenarios_customer_card_is_not_kept_either(database_url, tmp_path):
    app = _app(database_url, tmp_path)
    client = app.test_client()
    scenario = client.get("/generate-random-scenario?suite=hard&task=TASK_BOOK_CONSTRAINED&seed=1",
                          headers=OPERATOR).json
    facts = scenario["details"]["customer"]
    with app.extensions["sessionmaker"]() as session:
        stored = session.get(Scenario, scenario["id"]).details
    assert stored["customer"]["card_number"] == "****" + facts["card_number"][-4:]
    assert "security_code" not in stored["customer"] and facts["card_number"] not in json.dumps(stored)
    assert client.get(f"/reset-scenario?scenario={scenario['id']}", headers=OPERATOR).json["details"] == \
        scenario["details"]
