"""Twenty scenarios driven at once over real HTTP score exactly as each does when driven alone."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from crm_app.http_client import http_sender
from scenarios.replay import Replay
from scenarios.tasks import TASKS
from tests.conftest import OPERATOR


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
