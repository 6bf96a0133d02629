"""Playing a hard-suite scenario over the JSON API with the test client, as the tests' scripted
agents do: the operator's view of the scenario, lines to the customer, requests, and the verdict."""
from __future__ import annotations

from scenarios.gold_path import GoldPath
from scenarios.replay import client_sender
from tests.conftest import OPERATOR


def hard_scenario(client, task: str, seed: int) -> dict:
    """The scenario as the operator sees it (its details included)."""
    answer = client.get(f"/generate-random-scenario?suite=hard&task={task}&seed={seed}", headers=OPERATOR)
    assert answer.status_code == 200, answer.json
    return answer.json


def say(client, scenario: dict, text: str) -> str:
    answer = client.post(f"/api/customer/messages?scenario={scenario['id']}", json={"text": text})
    assert answer.status_code == 201, answer.json
    return answer.json["reply"]


def request(client, scenario: dict, method: str, path: str, body: dict | None = None):
    return client.open(f"{path}?scenario={scenario['id']}", method=method, json=body)


def evaluate(client, scenario: dict) -> dict:
    return client.get(f"/evaluate?scenario={scenario['id']}", headers=OPERATOR).json


def gold_lines(client, scenario: dict) -> tuple[list[str], list[str]]:
    """The gold lines to the customer that only ask (said before any request, by the scripted
    agents), and the others (said after their requests), each in order."""
    says = [step for step in evaluate(client, scenario)["gold_actions"] if step["action"] == "say"]
    asking = [step for step in says if step["asks"] and not step["tells"]]
    return [step["text"] for step in asking], [step["text"] for step in says if step not in asking]


def new_flight_id(client, scenario: dict) -> int:
    """The id of the flight the details' `flight` names (the customer's new flight)."""
    flight = scenario["details"]["flight"]
    found = client.get(f"/api/flights/search?scenario={scenario['id']}&from={flight['from']}&to={flight['to']}"
                       f"&date={flight['departure']}").json["flights"]
    return next(f["id"] for f in found if f["number"] == flight["outward-flight-number"])


def change(client, scenario: dict):
    """Move the caller's booking to the details' flight."""
    code = scenario["details"]["confirmation-code"]
    return request(client, scenario, "PUT", f"/api/bookings/{code}/flights",
                   {"outward_flight_id": new_flight_id(client, scenario)})


def perform(client, scenario: dict, gold_call: dict):
    """Make a gold call as a request (flights named by number and date are looked up by id)."""
    params, code = gold_call["params"], gold_call["params"].get("code")
    operation = gold_call["operation"]
    if operation == "search_bookings":
        return client.get(f"/api/bookings?scenario={scenario['id']}&last_name={params['last_name']}"
                          f"&date={params['date']}")
    if operation == "get_booking":
        return request(client, scenario, "GET", f"/api/bookings/{code}")
    if operation == "search_flights":
        return client.get(f"/api/flights/search?scenario={scenario['id']}&from={params['from']}&to={params['to']}"
                          f"&date={params['date']}")
    if operation == "cancel_booking":
        return request(client, scenario, "POST", f"/api/bookings/{code}/cancel",
                       {"confirmation_code": params["confirmation_code"]})
    if operation == "update_passenger":
        return request(client, scenario, "PATCH", f"/api/bookings/{code}/passenger", params["passenger"])
    if operation == "change_flights":
        return change(client, scenario)
    if operation == "create_booking":
        return request(client, scenario, "POST", "/api/bookings",
                       {"outward_flight_id": new_flight_id(client, scenario), "passenger": params["passenger"],
                        "payment": params["payment"], "fare": params["fare"]})
    raise AssertionError(f"no request for {operation}")


def play_gold(client, scenario: dict) -> dict:
    """A scripted agent that says the gold lines before the first page step, makes the gold calls,
    then says the other gold lines (scenarios/gold_path.py); the verdict."""
    gold = evaluate(client, scenario)
    answers = GoldPath(client_sender(client), {**scenario, **{k: gold[k] for k in ("gold_actions", "gold_calls")}}).play()
    assert all(status in (200, 201) for _, status in answers), answers
    return evaluate(client, scenario)
