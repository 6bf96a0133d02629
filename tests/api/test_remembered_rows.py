"""What a server process remembers instead of asking the database on every request (rows that
never change), and how its pooled PostgreSQL connections survive the server dropping them."""
from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from crm_app import db
from crm_app.memo import Memo
from scenarios import store
from scenarios.app import create_app
from scenarios.suites import suite_named
from scenarios.tasks import task_named
from tests.conftest import OPERATOR, TEST_CONFIG, dispose
from tests.postgres_cluster import TemporaryCluster


def test_a_memo_keeps_found_values_only_and_forgets_all_when_full():
    memo, loads = Memo(capacity=2), []

    def load(value):
        return lambda: loads.append(value) or value

    assert memo.get("gone", load(None)) is None and memo.get("gone", load(None)) is None
    assert memo.get("a", load(1)) == 1 and memo.get("a", load(99)) == 1
    assert loads == [None, None, 1]
    memo.get("b", load(2))
    memo.get("c", load(3))  # full: everything is forgotten, then c kept
    assert memo.get("a", load(4)) == 4 and loads[-1] == 4


def test_a_scenario_is_drawn_once_per_process_and_each_request_gets_its_own_copy(app, monkeypatch):
    draws = []
    real_draw = store._draw
    monkeypatch.setattr(store, "_draw", lambda *args: draws.append(args[2]) or real_draw(*args))
    client = app.test_client()
    made = client.get("/generate-random-scenario?task=TASK_MODIFY_FLIGHT&seed=4").json
    for _ in range(2):
        assert client.get(f"/reset-scenario?scenario={made['id']}").json["details"] == made["details"]
        assert client.get(f"/evaluate?scenario={made['id']}", headers=OPERATOR).status_code == 200
    assert draws == [4]
    with app.test_request_context():
        world = store.World(db.get_session(), app.extensions["calendar"], app.config["DATA_SEED"])
        sample, told = store.describe(world, task_named("TASK_MODIFY_FLIGHT"), 4, suite_named("full"))
        told["details"]["confirmation-code"] = "CHANGED"
        sample.details.clear()
        again, told_again = store.describe(world, task_named("TASK_MODIFY_FLIGHT"), 4, suite_named("full"))
    assert told_again["details"] == again.details == made["details"] and draws == [4]


def _app(database_url, folder):
    return create_app({**TEST_CONFIG, "DATABASE_URL": database_url, "INSTANCE_PATH": str(folder / "instance")})


def test_a_scenario_made_by_another_server_process_is_found(database_url, tmp_path):
    first, second = _app(database_url, tmp_path), _app(database_url, tmp_path)
    try:
        other = second.test_client()
        assert other.get("/reset-scenario?scenario=notmadeyet").status_code == 404
        made = first.test_client().get("/generate-random-scenario?task=TASK_FIND_BOOKING&seed=3").json
        assert other.get(f"/reset-scenario?scenario={made['id']}").json["details"] == made["details"]
        assert other.get(f"/evaluate?scenario={made['id']}", headers=OPERATOR).status_code == 200
        assert other.get("/reset-scenario?scenario=notmadeyet").status_code == 404  # still asked, still unknown
    finally:
        dispose(first)
        dispose(second)


@pytest.fixture(scope="module")
def postgresql_url(databases, tmp_path_factory):
    """A PostgreSQL database: the test server's in the PostgreSQL pass, else a cluster of its own."""
    if databases.kind == "postgresql":
        yield databases.new(tmp_path_factory.mktemp("pg"))
        return
    with TemporaryCluster() as cluster:
        yield cluster.create_database("crm")


def _drop_the_pooled_connections(app, postgresql_url) -> None:
    """The database server ends every connection in the app's pool (as a restart would)."""
    engine = app.extensions["engine"]
    pooled = [engine.connect() for _ in range(engine.pool.checkedin())]
    backends = [connection.scalar(text("SELECT pg_backend_pid()")) for connection in pooled]
    for connection in pooled:
        connection.close()
    killer = create_engine(postgresql_url)
    with killer.connect() as connection:
        for backend in backends:  # each call waits until that backend is gone
            assert connection.scalar(text("SELECT pg_terminate_backend(:pid, 10000)"), {"pid": backend})
    killer.dispose()


def test_a_pooled_connection_the_database_dropped_while_it_rested_is_replaced(postgresql_url, tmp_path, monkeypatch):
    app = _app(postgresql_url, tmp_path)
    client = app.test_client()
    try:
        assert client.get("/api/airports?q=JFK").status_code == 200
        _drop_the_pooled_connections(app, postgresql_url)
        monkeypatch.setattr(db, "IDLE_BEFORE_PING", 0.0)  # it rested long enough to be checked
        response = client.get("/api/airports?q=JFK")
        assert response.status_code == 200 and response.json["airports"][0]["code"] == "JFK"
    finally:
        dispose(app)


def test_a_connection_in_steady_use_is_not_pinged_so_a_drop_fails_one_request(postgresql_url, tmp_path):
    app = _app(postgresql_url, tmp_path)
    client = app.test_client()
    try:
        assert client.get("/api/airports?q=JFK").status_code == 200
        _drop_the_pooled_connections(app, postgresql_url)
        failed = client.get("/api/airports?q=JFK")
        assert failed.status_code == 500 and failed.json == {"error": "Something went wrong on the server"}
        assert client.get("/api/airports?q=JFK").status_code == 200  # the pool opened a new one
    finally:
        dispose(app)
