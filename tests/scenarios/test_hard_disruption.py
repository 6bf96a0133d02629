"""TASK_DISRUPTED_FLIGHT over the JSON API (issue 35): the airline cancelled or delayed the caller's
flight. The CRM shows the flight's status and the policy's free terms; the gold solves every
branch; scripted wrong agents score 0: doing nothing, a change past the 7 free days (a fee: the
reason says so), telling a fee, refusing because of the fare."""
import datetime as dt

import pytest

from tests.conftest import OPERATOR
from tests.scenarios.hard_calls import evaluate, gold_lines, hard_scenario, play_gold, request, say

TASK = "TASK_DISRUPTED_FLIGHT"
BRANCHES = {0: ("cancelled, the next flight", "Basic", "Cancelled"), 1: ("delayed, a later day", "Standard", "Delayed"),
            2: ("cancelled, the money back", "Standard", "Cancelled"), 3: ("delayed, the money back", "Basic", "Delayed")}
FEE_REASON = "the agent charged a fee on a flight the airline disrupted: change_flights broke the policy"


def code_of(scenario) -> str:
    return scenario["details"]["confirmation-code"]


def booking(client, scenario) -> dict:
    answer = request(client, scenario, "GET", f"/api/bookings/{code_of(scenario)}")
    assert answer.status_code == 200, answer.json
    return answer.json["booking"]


def search(client, scenario, day: str) -> list[dict]:
    flight = booking(client, scenario)["flights"][0]
    answer = client.get(f"/api/flights/search?scenario={scenario['id']}&from={flight['from']}&to={flight['to']}"
                        f"&date={day}")
    assert answer.status_code == 200, answer.json
    return answer.json["flights"]


def verify(client, scenario) -> None:
    before, _ = gold_lines(client, scenario)
    for line in before:
        say(client, scenario, line)


@pytest.mark.parametrize("seed, branch", BRANCHES.items())
def test_every_branch_disrupts_the_callers_flight_and_expects_the_free_terms(client, seed, branch):
    scenario = hard_scenario(client, TASK, seed)
    details = scenario["details"]
    name, fare, status = branch
    shown = booking(client, scenario)
    assert (details["branch"], shown["fare"], details["disrupted"]["status"]) == (name, fare, status)
    assert (shown["flights"][0]["status"], shown["flights"][0]["delay_minutes"] >= 180) == \
        (status, status == "Delayed")
    assert shown["disruption"] == {"direction": "outward", "status": status,
                                   "delay_minutes": details["disrupted"]["delay-minutes"]}
    assert shown["change"]["outcome"] == "allowed" and shown["change"]["amount"] == "0.00"
    said = "the airline cancelled the flight" if status == "Cancelled" else "the airline delayed the flight"
    assert shown["cancellation"]["outcome"] == "refund" and shown["cancellation"]["amount"] == shown["paid"]
    assert shown["cancellation"]["rule"].startswith(said) and shown["cancellation"]["rule"].endswith(": refunded in full")
    assert details["expected"] == {"outcome": "done",
                                   "must_say": ["0.00" if "flight" in details else shown["paid"]]}


def test_the_next_flight_is_the_earliest_after_the_cancelled_one_and_the_search_shows_the_status(client):
    scenario = hard_scenario(client, TASK, 0)
    details = scenario["details"]
    cancelled = booking(client, scenario)["flights"][0]
    listed = search(client, scenario, cancelled["date"])
    assert next(f for f in listed if f["number"] == cancelled["number"])["status"] == "Cancelled"
    assert {f["status"] for f in listed if f["number"] != cancelled["number"]} <= {"On time"}
    later = [f for f in listed if f["departure_time"] != cancelled["departure_time"]
             and listed.index(f) > listed.index(next(g for g in listed if g["number"] == cancelled["number"]))]
    if later:
        assert (details["flight"]["departure"], details["flight"]["outward-flight-number"]) == \
            (cancelled["date"], later[0]["number"])
    else:
        assert details["flight"]["departure"] > cancelled["date"]


@pytest.mark.parametrize("seed", list(BRANCHES))
def test_the_gold_agent_solves_every_branch_and_a_free_change_costs_nothing(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    paid = booking(client, scenario)["paid"]
    result = play_gold(client, scenario)
    assert (result["success"], result["policy_violations"], result["task_progress"]) == (1, 0, 1.0)
    after = booking(client, scenario)
    assert after["paid"] == paid and after["total"] == paid
    assert after["status"] == ("Confirmed" if "flight" in scenario["details"] else "Cancelled")


def test_the_quote_of_a_free_change_is_0_and_keeps_the_total(client):
    scenario = hard_scenario(client, TASK, 1)
    details = scenario["details"]
    new = next(f for f in search(client, scenario, details["flight"]["departure"])
               if f["number"] == details["flight"]["outward-flight-number"])
    quote = request(client, scenario, "GET", f"/api/bookings/{code_of(scenario)}/flights/quote",
                    None).status_code
    assert quote == 400  # no flight named
    answer = client.get(f"/api/bookings/{code_of(scenario)}/flights/quote?scenario={scenario['id']}&outward={new['id']}")
    assert answer.status_code == 200
    assert (answer.json["difference"], answer.json["total"], answer.json["policy"]["amount"]) == \
        ("0.00", booking(client, scenario)["total"], "0.00")


def outside_window(client, scenario) -> dict:
    """A flight of the same route the day after the free window's last day."""
    last = dt.date.fromisoformat(scenario["details"]["disrupted"]["free-until"])
    return search(client, scenario, (last + dt.timedelta(days=1)).isoformat())[0]


@pytest.mark.parametrize("seed", [0, 3])
def test_a_change_past_the_7_days_is_repriced_and_scores_0_as_a_fee(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    verify(client, scenario)
    paid = booking(client, scenario)["paid"]
    late = outside_window(client, scenario)
    quote = client.get(f"/api/bookings/{code_of(scenario)}/flights/quote?scenario={scenario['id']}&outward={late['id']}")
    assert quote.json["policy"] == {"outcome": "refused", "amount": "0.00",
                                    "rule": "no change within 24 hours of departure"}  # the usual terms
    moved = request(client, scenario, "PUT", f"/api/bookings/{code_of(scenario)}/flights",
                    {"outward_flight_id": late["id"]})
    assert moved.status_code == 200 and moved.json["booking"]["total"] == quote.json["total"] != paid
    say(client, scenario, "Done, the change costs $0.00.")
    result = evaluate(client, scenario)
    assert (result["success"], result["policy_violations"]) == (0, 1)
    assert result["state_check"]["reason"] == FEE_REASON


@pytest.mark.parametrize("seed", list(BRANCHES))
def test_doing_nothing_scores_0(client, seed):
    result = evaluate(client, hard_scenario(client, TASK, seed))
    assert (result["success"], result["said_ok"], result["state_ok"]) == (0, False, False)


def test_telling_a_fee_and_not_changing_scores_0(client):
    scenario = hard_scenario(client, TASK, 1)
    verify(client, scenario)
    booking(client, scenario)
    say(client, scenario, "Changing a Standard fare costs a $75.00 fee plus the fare difference.")
    result = evaluate(client, scenario)
    assert (result["success"], result["said_ok"]) == (0, False)
    assert result["state_check"]["reason"].startswith(f"booking {code_of(scenario)}: flights outward")


@pytest.mark.parametrize("seed", [0, 3])
def test_refusing_because_of_the_basic_fare_scores_0(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    verify(client, scenario)
    booking(client, scenario)
    say(client, scenario, "I'm sorry, Basic fares cannot be changed or refunded.")
    result = evaluate(client, scenario)
    assert (result["success"], result["state_ok"], result["said_ok"]) == (0, False, False)


def test_a_fare_upgrade_on_a_disrupted_booking_is_a_fee(client):
    scenario = hard_scenario(client, TASK, 2)  # Standard, cancelled, wants the money back
    verify(client, scenario)
    upgraded = request(client, scenario, "POST", f"/api/bookings/{code_of(scenario)}/fare", {"fare": "Flex"})
    assert upgraded.status_code == 200
    result = evaluate(client, scenario)
    assert (result["success"], result["policy_violations"]) == (0, 1)
    assert result["state_check"]["reason"] == \
        "the agent charged a fee on a flight the airline disrupted: upgrade_fare broke the policy"


def test_a_reset_writes_the_disruption_again(client):
    scenario = hard_scenario(client, TASK, 0)
    assert client.get(f"/reset-scenario?scenario={scenario['id']}", headers=OPERATOR).status_code == 200
    assert booking(client, scenario)["flights"][0]["status"] == "Cancelled"
