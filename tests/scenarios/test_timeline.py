"""GET /evaluate?timeline=...: the scores after each number of events, each what /evaluate answered
right then, also across a second write that spoils success; and clear errors for a bad timeline."""
from __future__ import annotations

import pytest

from scenarios.replay import Replay, client_sender
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


CALLS = [("hard", "TASK_POLICY_CHANGE"), ("hard", "TASK_ESCALATION"), ("expert", "EXPERT_CHANGE_CANCEL"),
         ("expert", "EXPERT_CHANGE_CANCEL_SUPERVISOR_MIXED")]


def play_call_step_by_step(client, scenario: dict, steps: list[dict]) -> list[dict]:
    """The gold steps of a call, the page's on one page and the lines to the customer, and
    /evaluate's scores right after each, with the mark that names the step (events:lines)."""
    replay, lines, seen = Replay(client_sender(client), scenario["id"]), 0, []
    for step in steps:
        if step["action"] in ("say", "transfer"):
            route, body = ("messages", {"text": step["text"]}) if step["action"] == "say" else (
                "transfer", {"summary": step["text"]})
            answer = client.post(f"/api/customer/{route}?scenario={scenario['id']}", json=body)
            assert answer.status_code == 201, answer.json
            lines = answer.json["lines"]
        else:
            replay.step(step)
        scores = client.get(f"/evaluate?scenario={scenario['id']}", headers=OPERATOR).json
        seen.append({"events": replay.seq, "lines": lines, **{key: scores[key] for key in SCORES},
                     **({"requests": [{"kind": r["kind"], "ok": r["ok"]} for r in scores["requests"]]}
                        if "requests" in scores else {})})
    return seen


@pytest.mark.parametrize("suite, task", CALLS)
def test_a_calls_timeline_gives_the_scores_evaluate_gave_after_each_step(client, suite, task):
    scenario = client.get(f"/generate-random-scenario?suite={suite}&task={task}&seed=3", headers=OPERATOR).json
    gold = client.get(f"/evaluate?scenario={scenario['id']}", headers=OPERATOR).json["gold_actions"]
    seen = play_call_step_by_step(client, scenario, gold)
    assert seen[-1]["success"] == 1 and seen[0]["success"] == 0 and seen[-1]["lines"] > 0
    answer = timeline(client, scenario, ",".join(f"{entry['events']}:{entry['lines']}" for entry in seen))
    assert answer.status_code == 200 and answer.json["timeline"] == seen
    if suite == "expert":  # each request handled right from its own step on
        assert [entry["requests"] for entry in seen][-1] == [{"kind": r["kind"], "ok": True} for r in seen[-1]["requests"]]
        assert not all(seen[0]["requests"][i]["ok"] for i in range(len(seen[0]["requests"])))


@pytest.mark.parametrize("marks, message", [
    ("all", "takes its timeline as marks events:lines"), ("0", "needs each timeline mark as events:lines"),
    ("0:1", "the call has stored 0 lines; a timeline mark cannot exceed that"), ("1:0", "a timeline mark cannot exceed that"),
    ("0:x", "timeline must be 'all' or"), ("0:", "timeline must be 'all' or"), ("0:0:0", "timeline must be 'all' or")])
def test_a_call_takes_its_marks_as_events_and_lines_and_a_bad_one_gets_a_400(client, marks, message):
    scenario = client.get("/generate-random-scenario?task=TASK_BOOK_CONSTRAINED&seed=3&suite=hard", headers=OPERATOR).json
    answer = timeline(client, scenario, marks)
    assert answer.status_code == 400 and message in answer.json["error"]
    assert timeline(client, scenario, "0:0").json["timeline"] == [
        {"events": 0, "lines": 0, **{key: value for key, value in answer_scores(client, scenario).items()}}]


def answer_scores(client, scenario: dict) -> dict:
    scores = client.get(f"/evaluate?scenario={scenario['id']}", headers=OPERATOR).json
    return {key: scores[key] for key in SCORES}


def test_a_mark_with_lines_is_for_a_call_only(client, scenarios):
    scenario = scenarios.generate("TASK_FIND_FLIGHT", 19)
    answer = timeline(client, scenario, "0:0")
    assert answer.status_code == 400 and "for a scenario with a customer on the line" in answer.json["error"]
