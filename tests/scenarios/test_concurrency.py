"""Twenty scenarios driven at once over real HTTP score exactly as each does when driven alone;
requests racing inside one scenario are each recorded once."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from crm_app.http_client import http_sender
from crm_app.server import BackgroundServer
from scenarios.app import create_app
from scenarios.replay import Replay
from scenarios.tasks import TASKS
from tests.api.helpers import at_once
from tests.conftest import OPERATOR, TEST_CONFIG
from tests.databases import dispose


def _drive(send, scenario_id: str, steps: list[dict]) -> dict:
    Replay(send, scenario_id).play(steps)
    return send("GET", f"/evaluate?scenario={scenario_id}", None)[1]


def _reset(send, scenario_id: str) -> None:
    assert send("GET", f"/reset-scenario?scenario={scenario_id}", None)[0] == 200


def test_twenty_scenarios_at_once_score_as_alone(live_server):
    send = http_sender(live_server, headers=OPERATOR)
    tasks = list(TASKS)
    plans = []
    for i in range(20):
        status, body = send("GET", f"/generate-random-scenario?task={tasks[i % 6]}&seed={500 + i}", None)
        assert status == 200
        gold = send("GET", f"/evaluate?scenario={body['id']}", None)[1]["gold_actions"]
        plans.append((body["id"], gold if i % 3 else gold[: len(gold) // 2]))  # every third one stops halfway

    alone = [_drive(send, scenario_id, steps) for scenario_id, steps in plans]
    for scenario_id, _ in plans:
        _reset(send, scenario_id)
    with ThreadPoolExecutor(max_workers=20) as pool:
        together = list(pool.map(lambda plan: _drive(send, *plan), plans))

    assert together == alone
    assert [r["success"] for r in alone] == [0 if i % 3 == 0 else 1 for i in range(20)]
    assert all(r["task_progress"] < 1 for i, r in enumerate(alone) if i % 3 == 0)
    assert all(r["task_progress"] == 1.0 for i, r in enumerate(alone) if i % 3)


# ---- writers racing inside one scenario (on PostgreSQL, the dataset lock of crm_app/db.py) ----

def _event(seq: int) -> dict:
    return {"page": "p", "seq": seq, "action": "click", "target": "nav-home"}


@pytest.fixture
def capped_server(databases, tmp_path):
    app = create_app({**TEST_CONFIG, "DATABASE_URL": databases.new(tmp_path), "INSTANCE_PATH": str(tmp_path / "i"),
                      "MAX_EVENTS": 5})
    with BackgroundServer(app) as server:
        yield server.url
    dispose(app)


def test_racing_events_get_one_number_each_and_stop_at_the_cap(capped_server):
    send = http_sender(capped_server, headers=OPERATOR)
    scenario = send("GET", "/generate-random-scenario?task=TASK_FIND_BOOKING&seed=8", None)[1]["id"]
    results = at_once(capped_server, [("POST", f"/api/events?scenario={scenario}", _event(seq), {})
                                      for seq in range(1, 13)])
    stored = [body["number"] for status, body, _ in results if status == 201]
    assert sorted(stored) == [1, 2, 3, 4, 5]  # exactly the cap, numbered in arrival order
    assert sorted(status for status, _, _ in results) == [201] * 5 + [429] * 7
    assert send("GET", f"/evaluate?scenario={scenario}", None)[1]["num_actions"] == 5
    # the same event sent twice at once is stored once and both answers give its number
    send("GET", f"/reset-scenario?scenario={scenario}", None)
    twins = at_once(capped_server, [("POST", f"/api/events?scenario={scenario}", _event(1), {})] * 4)
    assert sorted(status for status, _, _ in twins) == [200, 200, 200, 201]
    assert {body["number"] for _, body, _ in twins} == {1}


def test_racing_resets_and_calls_leave_the_initial_bookings_once(live_server):
    send = http_sender(live_server, headers=OPERATOR)
    body = send("GET", "/generate-random-scenario?task=TASK_CANCEL_FLIGHT&seed=9", None)[1]
    scenario, code = body["id"], body["details"]["confirmation-code"]
    requests = [("GET", f"/reset-scenario?scenario={scenario}", None, {})] * 4
    requests += [("GET", f"/api/bookings/{code}?scenario={scenario}", None, {})] * 4
    requests += [("POST", f"/api/events?scenario={scenario}", _event(seq), {}) for seq in range(1, 5)]
    results = at_once(live_server, requests)
    assert {status for status, _, _ in results[:8]} == {200}
    assert {status for status, _, _ in results[8:]} <= {200, 201}
    result = send("GET", f"/evaluate?scenario={scenario}", None)[1]
    assert result["state_check"] == {"passed": False, "reason": f"booking {code} is still active"}
    found = send("GET", f"/api/bookings/{code}?scenario={scenario}", None)
    assert found[0] == 200 and found[1]["booking"]["status"] == "Confirmed"
