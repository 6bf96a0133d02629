"""GET /evaluate?timeline=...: the scores after each number of events, each what /evaluate answered
right then, also across a second write that spoils success; and clear errors for a bad timeline."""
from __future__ import annotations

import pytest

from scenarios.replay import Replay
from tests.conftest import OPERATOR

SCORES = ("success", "task_progress", "num_actions", "matched")
TASKS = ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
         "TASK_UPDATE_PASSENGER_DETAILS", "TASK_MODIFY_FLIGHT")


def timeline(client, scenario: dict, marks: str):
    return client.get(f"/evaluate?scenario={scenario['id']}&timeline={marks}", headers=OPERATOR)


def play_step_by_step(scenarios, scenario: dict, steps: list[dict]) -> list[dict]:
    """Each step played on one page, and /evaluate's scores right after it."""
    replay = Replay(scenarios.send, scenario["id"])
    seen = []
    for step in steps:
        replay.step(step)
        answer = scenarios.evaluate(scenario)
        seen.append({"events": replay.seq, **{key: answer[key] for key in SCORES}})
    return seen


@pytest.mark.parametrize("task", TASKS)
def test_the_timeline_gives_the_scores_evaluate_gave_after_each_step(client, scenarios, task):
    scenario = scenarios.generate(task, 17)
    seen = play_step_by_step(scenarios, scenario, scenarios.gold(scenario))
    answer = timeline(client, scenario, ",".join(str(entry["events"]) for entry in seen))
    assert answer.status_code == 200
    assert answer.json["timeline"] == seen and seen[-1]["success"] == 1
    whole = timeline(client, scenario, "all").json["timeline"]
    assert [entry["events"] for entry in whole] == list(range(len(seen) + 1))
    assert whole[0] == {"events": 0, "success": 0, "task_progress": 0.0, "num_actions": 0,
                        "matched": [False] * len(seen)}


def test_each_step_is_scored_on_the_state_its_own_write_left(client, scenarios):
    scenario = scenarios.generate("TASK_BOOK_FLIGHT", 18)
    gold = scenarios.gold(scenario)
    seen = play_step_by_step(scenarios, scenario, gold + gold)  # the same booking made twice
    # booked at the first round's last click, booked again (spoiling it) at the second's
    assert [entry["success"] for entry in seen] == [0] * (len(gold) - 1) + [1] * len(gold) + [0]
    marks = ",".join(str(entry["events"]) for entry in seen)
    assert timeline(client, scenario, marks).json["timeline"] == seen


@pytest.mark.parametrize("marks, message", [
    ("two", "timeline must be 'all' or"), ("1,,2", "timeline must be 'all' or"), ("-1", "timeline must be 'all' or"), ("\u00b2", "timeline must be 'all' or"),
    ("3", "a timeline mark cannot exceed that"), (",".join(["0"] * 1001), "timeline must be 'all' or")])
def test_a_bad_timeline_gets_a_400_that_says_why(client, scenarios, marks, message):
    scenario = scenarios.generate("TASK_FIND_FLIGHT", 19)
    answer = timeline(client, scenario, marks)
    assert answer.status_code == 400 and message in answer.json["error"]


def test_a_scenario_with_a_customer_on_the_line_has_no_timeline(client):
    scenario = client.get("/generate-random-scenario?task=TASK_BOOK_CONSTRAINED&seed=3&suite=hard", headers=OPERATOR).json
    answer = timeline(client, scenario, "all")
    assert answer.status_code == 400 and "customer on the line" in answer.json["error"]
