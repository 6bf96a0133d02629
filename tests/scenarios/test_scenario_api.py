"""The scenario endpoints through the Flask test client: shapes, isolation, reset, events, scoring."""
from __future__ import annotations

import pytest

from scenarios.app import create_app
from tests.conftest import OPERATOR

TASK_NAMES = ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
             "TASK_UPDATE_PASSENGER_DETAILS", "TASK_MODIFY_FLIGHT")


def test_generate_answers_the_documented_shape(client):
    body = client.get("/generate-random-scenario?task=TASK_FIND_FLIGHT&seed=1234", base_url="http://crm.test:8080").json
    assert list(body) == ["scenario", "id", "url", "seed", "instruction", "conversation", "details"]
    assert body["scenario"] == "TASK_FIND_FLIGHT" and body["seed"] == 1234
    assert len(body["id"]) == 20 and body["id"].isalnum() and body["id"] == body["id"].lower()
    assert body["url"] == f"http://crm.test:8080/?scenario={body['id']}"
    assert list(body["details"]) == ["flight"]
    assert {turn["role"] for turn in body["conversation"]} == {"CUS", "REP"}
    assert body["details"]["flight"]["from"] in body["instruction"]


def test_aliases_and_random_seed(client):
    cancel = client.get("/get-random-scenario?task=TASK_CANCEL_BOOKING").json
    assert cancel["scenario"] == "TASK_CANCEL_FLIGHT" and list(cancel["details"]) == ["confirmation-code"]
    assert client.get("/generate-random-scenario?task=task_modify_passenger&seed=3").json["scenario"] == \
        "TASK_UPDATE_PASSENGER_DETAILS"
    seeds = {client.get("/generate-random-scenario").json["seed"] for _ in range(3)}
    assert len(seeds) == 3  # drawn afresh each time, and reported back
    first = client.get("/generate-random-scenario?seed=99").json
    again = client.get("/generate-random-scenario?seed=99").json
    assert (first["scenario"], first["details"]) == (again["scenario"], again["details"])
    assert first["id"] != again["id"]


@pytest.mark.parametrize("url, status", [
    ("/generate-random-scenario?task=TASK_FLY_TO_MARS", 400),
    ("/generate-random-scenario?seed=-1", 400),
    ("/generate-random-scenario?seed=abc", 400),
    ("/generate-random-scenario?seed=99999999999", 400),
    ("/evaluate", 400),
    ("/evaluate?scenario=", 400),
    ("/evaluate?scenario=NOT-VALID!", 400),
    ("/evaluate?scenario=zzzzzzzzzzzzzzzzzzzz", 404),
    ("/reset-scenario", 400),
    ("/reset-scenario?scenario=zzzzzzzzzzzzzzzzzzzz", 404),
    ("/reset-scenario?scenario=" + "a" * 41, 400),
])
def test_bad_requests_get_json_errors(client, url, status):
    response = client.get(url)
    assert response.status_code == status
    assert isinstance(response.json["error"], str) and response.json["error"]


def test_unknown_task_names_the_choices(client):
    error = client.get("/generate-random-scenario?task=TASK_FLY").json["error"]
    assert error.startswith("Unknown task: TASK_FLY.") and "TASK_MODIFY_FLIGHT" in error


EVENT = {"page": "p1", "seq": 1, "action": "fill", "target": "search-from", "value": " jfk "}


@pytest.mark.parametrize("body", [
    {**EVENT, "seq": 0}, {**EVENT, "seq": "1"}, {**EVENT, "seq": True}, {**EVENT, "page": ""},
    {**EVENT, "page": "bad page"}, {**EVENT, "action": "hover"}, {**EVENT, "target": "<script>"},
    {**EVENT, "value": {"a": 1}}, {**EVENT, "fields": ["x"]}, {**EVENT, "fields": {"a b": "x"}},
    {k: v for k, v in EVENT.items() if k != "target"}, [EVENT], "text",
])
def test_malformed_events_get_400(client, scenarios, body):
    scenario = scenarios.generate("TASK_FIND_FLIGHT", 1)
    response = client.post(f"/api/events?scenario={scenario['id']}", json=body)
    assert response.status_code == 400 and response.json["error"]


def test_events_need_a_known_scenario(client):
    assert client.post("/api/events", json=EVENT).status_code == 400
    assert client.post("/api/events", json=EVENT, headers={"X-Scenario-Id": "zzzzzzzzzzzzzzzzzzzz"}).status_code == 404


def test_events_are_numbered_normalized_and_repeats_ignored(client, scenarios):
    scenario = scenarios.generate("TASK_FIND_FLIGHT", 5)
    post = lambda body: client.post("/api/events", json=body, headers={"X-Scenario-Id": scenario["id"]})  # noqa: E731
    first = post(EVENT)
    assert (first.status_code, first.json) == (201, {"number": 1})
    second = post({"page": "p1", "seq": 2, "action": "click", "target": "search-submit",
                   "fields": {"search-depart": "07/07/2026", "payment-card-number": "4111 1111 1111 1111"}})
    assert (second.status_code, second.json) == (201, {"number": 2})
    repeat = post(EVENT)
    assert (repeat.status_code, repeat.json) == (200, {"number": 1})
    result = scenarios.evaluate(scenario)
    assert result["num_actions"] == 2
    assert [m["action"] for m in result["metrics"]] == ['fill search-from "JFK"', "click search-submit"]
    from crm_app.models import Event
    with client.application.extensions["sessionmaker"]() as session:
        stored = session.query(Event).filter_by(scenario_id=scenario["id"]).order_by(Event.id).all()
    hasher = client.application.extensions["card_hasher"]
    assert stored[1].fields == {"search-depart": "2026-07-07",
                                "payment-card-number": hasher.card_number("4111111111111111")}
    assert stored[1].fields["payment-card-number"].startswith("****1111:")  # last four + keyed hash


def test_bookings_stay_inside_their_scenario(scenarios):
    a = scenarios.generate("TASK_FIND_BOOKING", 11)
    b = scenarios.generate("TASK_FIND_BOOKING", 12)
    code = a["details"]["confirmation-code"]
    assert scenarios.booking(a["id"], code).status_code == 200
    assert scenarios.booking(b["id"], code).status_code == 404
    assert scenarios.booking(None, code).status_code == 404
    book = scenarios.generate("TASK_BOOK_FLIGHT", 13)
    replay = scenarios.play(book, scenarios.gold(book))
    made = [status for path, status in replay.calls if path == "/api/bookings"]
    assert made == [201]
    assert scenarios.evaluate(book)["success"] == 1
    leaked = scenarios.evaluate(a)  # a's own lookup, scored as API work; nothing leaked from the others
    assert (leaked["modality"], leaked["num_actions"], leaked["task_progress"]) == ("api", 1, 1.0)


def test_reset_brings_back_a_cancelled_booking(scenarios):
    scenario = scenarios.generate("TASK_CANCEL_FLIGHT", 21)
    code = scenario["details"]["confirmation-code"]
    before = scenarios.booking(scenario["id"], code).json["booking"]
    scenarios.play(scenario, scenarios.gold(scenario))
    assert scenarios.booking(scenario["id"], code).json["booking"]["status"] == "Cancelled"
    assert scenarios.evaluate(scenario)["success"] == 1
    reset = scenarios.client.get(f"/reset-scenario?scenario={scenario['id']}").json
    for key in ("id", "details", "instruction", "conversation"):
        assert reset[key] == scenario[key]
    assert scenarios.booking(scenario["id"], code).json["booking"] == before
    result = scenarios.evaluate(scenario)  # no event since the reset; the one lookup above, the first of two gold calls
    assert (result["modality"], result["success"], result["num_actions"], result["task_progress"]) == ("api", 0, 1, 0.5)
    page = scenarios.evaluate(scenario, modality="ui")
    assert (page["success"], page["num_actions"], page["task_progress"]) == (0, 0, 0.0)


def test_reset_removes_a_booking_made_in_the_scenario(scenarios):
    scenario = scenarios.generate("TASK_BOOK_FLIGHT", 22)
    scenarios.play(scenario, scenarios.gold(scenario))
    scenarios.client.get(f"/reset-scenario?scenario={scenario['id']}")
    assert scenarios.evaluate(scenario)["state_check"]["reason"] == "no booking was made"


def test_scenarios_survive_a_restart(database_url, tmp_path):
    config = {"SANDBOX_BOOKINGS": 2, "DATABASE_URL": database_url,
              "INSTANCE_PATH": str(tmp_path / "instance")}
    scenario = create_app(config).test_client().get("/generate-random-scenario?task=TASK_FIND_BOOKING&seed=4").json
    restarted = create_app(config).test_client()
    result = restarted.get(f"/evaluate?scenario={scenario['id']}", headers=OPERATOR).json
    assert result["gold_actions"][1]["value"] == scenario["details"]["confirmation-code"]
    code = scenario["details"]["confirmation-code"]
    assert restarted.get(f"/api/bookings/{code}?scenario={scenario['id']}").status_code == 200


@pytest.mark.parametrize("task", TASK_NAMES)
def test_gold_sequence_through_the_api_succeeds(scenarios, task):
    scenario = scenarios.generate(task, 31)
    gold = scenarios.gold(scenario)
    scenarios.play(scenario, gold)
    result = scenarios.evaluate(scenario)
    assert (result["success"], result["task_progress"], result["num_actions"]) == (1, 1.0, len(gold))
    assert result["metrics"][-1] == {"step": len(gold), "action": f"click {gold[-1]['target']}",
                                     "task_completion": 1, "%complete": 1.0}


def test_half_a_booking_gives_partial_progress(scenarios):
    scenario = scenarios.generate("TASK_BOOK_FLIGHT", 41)
    gold = scenarios.gold(scenario)
    half = gold[:len(gold) // 2]
    scenarios.play(scenario, half)
    result = scenarios.evaluate(scenario)
    met = sum(result["matched"])
    assert 0 < result["task_progress"] < 1 and result["success"] == 0
    assert result["task_progress"] == round(met / len(gold), 4)
    assert result["state_check"]["reason"] == "no booking was made"


def _replace(steps, target, value):
    return [{**s, "value": value} if s["target"] == target else s for s in steps]


def test_wrong_passenger_name_fails(scenarios):
    scenario = scenarios.generate("TASK_BOOK_FLIGHT", 42)
    scenarios.play(scenario, _replace(scenarios.gold(scenario), "passenger-firstname", "Zebulon"))
    result = scenarios.evaluate(scenario)
    assert result["success"] == 0 and result["task_progress"] < 1
    expected = scenario["details"]["passenger"]["firstname"]
    assert result["state_check"]["reason"] == \
        f"the new booking: passenger first_name is 'Zebulon', expected '{expected}'"


def test_wrong_date_fails(scenarios):
    scenario = scenarios.generate("TASK_FIND_FLIGHT", 43)
    gold = scenarios.gold(scenario)
    scenarios.play(scenario, _replace(gold, "search-depart", "2026-12-24"))
    result = scenarios.evaluate(scenario)
    assert (result["success"], result["task_progress"]) == (0, 0.8)


def test_wrong_flight_fails(scenarios):
    scenario = scenarios.generate("TASK_MODIFY_FLIGHT", 44)
    flight = scenario["details"]["flight"]
    query = f"from={flight['from']}&to={flight['to']}&date={flight['departure']}"
    found = scenarios.client.get(f"/api/flights/search?{query}").json
    other = next(f["number"] for f in found["flights"] if f["number"] != flight["outward-flight-number"])
    gold = scenarios.gold(scenario)
    scenarios.play(scenario, _replace(gold, "change-outward-flight", other))
    result = scenarios.evaluate(scenario)
    assert result["success"] == 0
    assert result["task_progress"] == round((len(gold) - 1) / len(gold), 4)
    code = scenario["details"]["confirmation-code"]
    assert result["state_check"]["reason"].startswith(f"booking {code}: flights outward")


def test_extra_passenger_field_edit_fails_though_every_step_matched(scenarios):
    scenario = scenarios.generate("TASK_UPDATE_PASSENGER_DETAILS", 45)
    gold = scenarios.gold(scenario)
    untouched = next(key for key in ("firstname", "lastname", "email") if key not in scenario["details"]["passenger"])
    extra = {"firstname": "Quentin", "lastname": "Quist", "email": "q@example.net"}[untouched]
    save = len(gold) - 1
    steps = gold[:save] + [{"action": "fill", "target": f"modify-passenger-{untouched}", "value": extra}] + gold[save:]
    scenarios.play(scenario, steps)
    result = scenarios.evaluate(scenario)
    assert (result["success"], result["task_progress"]) == (0, 1.0)
    field = {"firstname": "first_name", "lastname": "last_name", "email": "email"}[untouched]
    code = scenario["details"]["confirmation-code"]
    assert result["state_check"]["reason"].startswith(f"booking {code}: passenger {field} is '{extra}'")


def test_second_booking_fails_though_every_step_matched(scenarios):
    scenario = scenarios.generate("TASK_BOOK_FLIGHT", 46)
    gold = scenarios.gold(scenario)
    scenarios.play(scenario, gold + gold[-1:])  # Book flight pressed twice
    result = scenarios.evaluate(scenario)
    assert (result["success"], result["task_progress"], result["num_actions"]) == (0, 1.0, len(gold) + 1)
    assert result["state_check"]["reason"] == "2 new bookings were made, expected 1"


def test_the_operator_asks_for_the_bookings_a_scenario_starts_from(client):
    url = "/generate-random-scenario?task=TASK_CANCEL_FLIGHT&seed=4"
    plain, asked = client.get(url, headers=OPERATOR).json, client.get(url + "&initial_state=1", headers=OPERATOR).json
    assert "initial_state" not in plain and "initial_state" not in client.get(url + "&initial_state=1").json
    booked = asked["initial_state"][asked["details"]["confirmation-code"]]
    assert booked["status"] == "Confirmed" and booked["card"]["number"].isdigit()
    refused = client.get(url + "&initial_state=maybe", headers=OPERATOR)
    assert refused.status_code == 400 and refused.json["error"] == "initial_state takes 1 or 0"
