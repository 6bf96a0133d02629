"""The scoring rules of docs/scenarios.md through the HTTP routes: success from the final state,
read-only tasks judged on the requests the server answered, the record of those requests, the
event and call caps, and the operator token."""
from __future__ import annotations

import pytest

from scenarios.app import create_app
from tests.conftest import OPERATOR, OPERATOR_TOKEN, TEST_CONFIG

WRITE_TASKS = ("TASK_BOOK_FLIGHT", "TASK_CANCEL_FLIGHT", "TASK_UPDATE_PASSENGER_DETAILS", "TASK_MODIFY_FLIGHT")


def stray_click(client, scenario):
    response = client.post(f"/api/events?scenario={scenario['id']}",
                           json={"page": "stray", "seq": 1, "action": "click", "target": "nav-help", "fields": {}})
    assert response.status_code == 201


@pytest.mark.parametrize("task", WRITE_TASKS + ("TASK_FIND_FLIGHT", "TASK_FIND_BOOKING"))
def test_work_done_through_the_json_api_alone_succeeds_and_is_scored_on_its_calls(scenarios, task):
    """Rule 2: success is state_check.passed. With no page event the episode is scored as API work:
    progress counts the gold calls met; scored as UI work it has none."""
    scenario = scenarios.generate(task, 61)
    replay = scenarios.play(scenario, scenarios.gold(scenario), events=False)
    result = scenarios.evaluate(scenario)
    assert result["state_check"] == {"passed": True, "reason": "the goal holds and nothing else changed"}
    assert result["modality"] == "api" and result["matched"] == [True] * len(result["gold_calls"])
    assert (result["success"], result["task_progress"], result["num_actions"]) == (1, 1.0, len(replay.calls))
    assert result["metrics"][-1] == {"step": len(replay.calls), "action": result["metrics"][-1]["action"],
                                     "task_completion": 1, "%complete": 1.0}
    page = scenarios.evaluate(scenario, modality="ui")
    assert (page["modality"], page["success"], page["task_progress"], page["num_actions"]) == ("ui", 1, 0.0, 0)
    assert page["metrics"] == [{"step": 0, "action": "", "task_completion": 1, "%complete": 0.0}]
    stray_click(scenarios.client, scenario)
    after = scenarios.evaluate(scenario)  # a page event: scored as UI work
    assert (after["modality"], after["success"], after["task_progress"], after["num_actions"]) == ("ui", 1, 0.0, 1)


def test_a_stray_click_does_not_make_an_unfinished_task_succeed(scenarios):
    scenario = scenarios.generate("TASK_CANCEL_FLIGHT", 62)
    stray_click(scenarios.client, scenario)
    result = scenarios.evaluate(scenario)
    assert (result["success"], result["state_check"]["passed"]) == (0, False)


@pytest.mark.parametrize("task, reason", [("TASK_FIND_FLIGHT", "no flight search was made"),
                                          ("TASK_FIND_BOOKING", "no booking lookup was made")])
def test_posting_the_gold_events_without_the_request_does_not_succeed(scenarios, task, reason):
    """Rule 3: events feed progress only."""
    scenario = scenarios.generate(task, 63)
    scenarios.play(scenario, scenarios.gold(scenario), requests=False)
    result = scenarios.evaluate(scenario)
    assert (result["success"], result["task_progress"]) == (0, 1.0)
    assert result["state_check"]["reason"] == reason


def _look_up(client, scenario, code):
    return client.get(f"/api/bookings/{code}", headers={"X-Scenario-Id": scenario["id"]}).status_code


def test_find_booking_is_judged_on_the_last_lookup(scenarios):
    scenario = scenarios.generate("TASK_FIND_BOOKING", 64)
    code = scenario["details"]["confirmation-code"]
    client = scenarios.client
    assert (_look_up(client, scenario, code), _look_up(client, scenario, "ZZZZZ9")) == (200, 404)
    result = scenarios.evaluate(scenario)
    assert result["success"] == 0
    assert result["state_check"]["reason"] == f"the last booking lookup was for 'ZZZZZ9', not {code}"
    assert _look_up(client, scenario, code.lower()) == 200
    assert scenarios.evaluate(scenario)["success"] == 1


def _search(client, scenario, **query):
    return client.get("/api/flights/search", query_string=query, headers={"X-Scenario-Id": scenario["id"]}).status_code


def test_find_flight_is_judged_on_the_last_search(scenarios):
    scenario = scenarios.generate("TASK_FIND_FLIGHT", 65)
    flight = scenario["details"]["flight"]
    asked = {"from": flight["from"], "to": flight["to"], "date": flight["departure"]}
    if "return" in flight:
        asked["return"] = flight["return"]
    client = scenarios.client
    assert _search(client, scenario, **asked) == 200
    assert scenarios.evaluate(scenario)["success"] == 1
    assert _search(client, scenario, **{**asked, "date": "not a date"}) == 400
    refused = scenarios.evaluate(scenario)
    assert refused["success"] == 0 and refused["state_check"]["reason"] == "the last flight search was refused (status 400)"
    us_date = "{1}/{2}/{0}".format(*flight["departure"].split("-"))
    assert _search(client, scenario, **{**asked, "date": us_date, "from": flight["from"].lower()}) == 200
    assert scenarios.evaluate(scenario)["success"] == 1  # the same search, typed another way


def test_every_api_call_inside_a_scenario_is_recorded_in_order_and_card_safe(app, client, scenarios):
    from scenarios.store import scenario_calls

    scenario = scenarios.generate("TASK_BOOK_FLIGHT", 66)
    replay = scenarios.play(scenario, scenarios.gold(scenario), events=False)
    booked = scenarios.booking(scenario["id"], "X").status_code  # one more lookup, answered 404
    client.get("/api/flights/search?from=JFK&to=FLL&date=2026-07-07")  # the sandbox: not recorded
    client.get("/api/bookings/ABCDEF?scenario=zzzzzzzzzzzzzzzzzzzz")  # an unknown scenario: not recorded
    with app.extensions["sessionmaker"]() as session:
        calls = scenario_calls(session, scenario["id"])
    assert [(c["operation"], c["status"]) for c in calls] == [
        ("search_flights", 200), ("validate_passenger", 200), ("create_booking", 201), ("get_booking", booked)]
    assert len(replay.calls) == 3
    details = scenario["details"]
    flight, card = details["flight"], details["payment-details"]
    search = {"from": flight["from"], "to": flight["to"], "date": flight["departure"]}
    if "return" in flight:
        search["return"] = flight["return"]
    assert calls[0]["params"] == search
    payment = calls[2]["params"]["payment"]
    hasher = app.extensions["card_hasher"]
    assert payment == {"card_number": hasher.card_number(card["card-number"]), "expiry": card["expiry"],
                       "security_code": hasher.security_code(card["security_code"]), "name_on_card": card["name-on-card"]}
    assert calls[2]["params"]["passenger"]["email"] == details["passenger"]["email"].lower()
    assert calls[3]["params"] == {"code": "X"}
    scenarios.client.get(f"/reset-scenario?scenario={scenario['id']}")
    with app.extensions["sessionmaker"]() as session:
        assert scenario_calls(session, scenario["id"]) == []


def test_write_calls_record_their_parameters(app, scenarios):
    from scenarios.store import scenario_calls

    scenario = scenarios.generate("TASK_MODIFY_FLIGHT", 67)
    scenarios.play(scenario, scenarios.gold(scenario), events=False)
    cancel = scenarios.generate("TASK_CANCEL_FLIGHT", 67)
    scenarios.play(cancel, scenarios.gold(cancel), events=False)
    with app.extensions["sessionmaker"]() as session:
        modify, cancelled = scenario_calls(session, scenario["id"]), scenario_calls(session, cancel["id"])
    assert [c["operation"] for c in modify] == ["get_booking", "search_flights", "change_flights"]
    change = modify[-1]["params"]
    assert change["code"] == scenario["details"]["confirmation-code"] and isinstance(change["outward_flight_id"], int)
    flight = scenario["details"]["flight"]  # the ids' flights, by number and date
    assert change["outward_flight"] == {"number": flight["outward-flight-number"], "date": flight["departure"]}
    assert change["return_flight"] == ({"number": flight["return-flight-number"], "date": flight["return"]}
                                       if "return" in flight else None)
    code = cancel["details"]["confirmation-code"]
    assert cancelled[-1] == {"operation": "cancel_booking", "params": {"code": code, "confirmation_code": code},
                             "status": 200}


def _limited_app(database_url, tmp_path, **limits):
    return create_app({**TEST_CONFIG, "DATABASE_URL": database_url, "INSTANCE_PATH": str(tmp_path / "instance"), **limits})


def test_events_past_the_cap_get_a_clear_429(database_url, tmp_path):
    """Rule 4: a scenario keeps at most MAX_EVENTS page events."""
    client = _limited_app(database_url, tmp_path, MAX_EVENTS=3).test_client()
    scenario = client.get("/generate-random-scenario?task=TASK_FIND_BOOKING&seed=1").json
    post = lambda seq: client.post(f"/api/events?scenario={scenario['id']}",  # noqa: E731
                                   json={"page": "p", "seq": seq, "action": "click", "target": "nav-home"})
    assert [post(seq).status_code for seq in (1, 2, 3)] == [201, 201, 201]
    refused = post(4)
    assert refused.status_code == 429
    assert refused.json["error"].startswith("This scenario has recorded 3 page events")
    assert post(3).status_code == 200  # a repeat is answered as before
    assert client.get(f"/evaluate?scenario={scenario['id']}").json["num_actions"] == 3
    client.get(f"/reset-scenario?scenario={scenario['id']}")
    assert post(1).status_code == 201


def test_api_calls_past_the_cap_get_a_clear_429(database_url, tmp_path):
    client = _limited_app(database_url, tmp_path, MAX_API_CALLS=2).test_client()
    scenario = client.get("/generate-random-scenario?task=TASK_FIND_BOOKING&seed=1").json
    code = scenario["details"]["confirmation-code"]
    look = lambda: client.get(f"/api/bookings/{code}?scenario={scenario['id']}")  # noqa: E731
    assert [look().status_code for _ in range(2)] == [200, 200]
    refused = look()
    assert refused.status_code == 429 and "recorded 2 API calls" in refused.json["error"]
    assert client.get(f"/api/bookings/{code}").status_code == 404  # the sandbox is not limited
    assert client.get(f"/evaluate?scenario={scenario['id']}").json["success"] == 1


def test_without_the_operator_token_evaluate_answers_scores_but_no_gold_values(scenarios):
    """Rule 5."""
    scenario = scenarios.generate("TASK_BOOK_FLIGHT", 68)
    full = scenarios.evaluate(scenario)
    scenarios.play(scenario, full["gold_actions"][:6])
    full = scenarios.evaluate(scenario)
    public = scenarios.evaluate(scenario, operator=False)
    assert [step.get("value") for step in full["gold_actions"] if step["action"] == "fill"] and \
        all(step.get("value") for step in full["gold_actions"] if step["action"] == "fill")
    assert all("value" not in step for step in public["gold_actions"])
    assert public["gold_actions"] == [{k: v for k, v in step.items() if k != "value"} for step in full["gold_actions"]]
    for key in ("id", "scenario", "success", "task_progress", "num_actions", "matched", "state_check", "metrics"):
        assert public[key] == full[key], key
    assert 0 < public["task_progress"] < 1


def test_the_token_may_come_as_a_header_or_in_the_query_and_a_wrong_one_is_refused(client, scenarios):
    scenario = scenarios.generate("TASK_FIND_BOOKING", 69)
    url = f"/evaluate?scenario={scenario['id']}"
    code = scenario["details"]["confirmation-code"]
    assert client.get(url, headers=OPERATOR).json["gold_actions"][1]["value"] == code
    assert client.get(f"{url}&token={OPERATOR_TOKEN}").json["gold_actions"][1]["value"] == code
    wrong = client.get(url, headers={"X-Operator-Token": "guess"})
    assert wrong.status_code == 403 and "operator token" in wrong.json["error"]
    assert client.get(f"{url}&token=guess").status_code == 403
