"""Every task of the hard suite over the JSON API: each branch is solved by a scripted agent that
follows the gold lines and calls; doing nothing scores 0 everywhere; and the wrong agents of the
tasks that are not covered in their own modules (test_hard_cancel.py, test_hard_change.py,
test_hard_fare_question.py) score 0."""
import pytest

from scenarios.tasks import HARD_TASKS
from tests.scenarios.hard_calls import change, evaluate, gold_lines, hard_scenario, perform, play_gold, say

SEEDS = range(5)  # a seed draws branch seed % 5


@pytest.mark.parametrize("task", HARD_TASKS)
def test_every_branch_of_every_task_is_solved_by_following_the_gold_calls(client, task):
    for seed in SEEDS:
        result = play_gold(client, hard_scenario(client, task, seed))
        assert (result["success"], result["state_ok"], result["said_ok"], result["verified_first"],
                result["policy_violations"], result["task_progress"]) == (1, True, True, True, 0, 1.0), \
            (seed, result["state_check"])
        # every line to the customer asks or tells something (a closing line its outcome): none is met by any line
        assert all(step["asks"] or step["tells"] for step in result["gold_actions"] if step["action"] == "say"), seed


@pytest.mark.database_independent  # what is drawn, not how it is stored
@pytest.mark.parametrize("task", HARD_TASKS)
def test_a_hundred_seeds_of_every_task_are_drawn_meeting_every_branch_in_turn(client, task):
    branches = [hard_scenario(client, task, seed)["details"]["branch"] for seed in range(100)]
    count = len(set(branches))
    assert count in (3, 4, 5) and branches == branches[:count] * (100 // count) + branches[:100 % count]


@pytest.mark.parametrize("task", HARD_TASKS)
def test_doing_nothing_scores_0_on_every_branch(client, task):
    for seed in SEEDS:
        result = evaluate(client, hard_scenario(client, task, seed))
        assert (result["success"], result["said_ok"]) == (0, False), seed


def test_the_same_transcript_gets_the_same_replies_and_the_same_score(client):
    transcripts, scores = [], []
    for _ in range(2):
        scenario = hard_scenario(client, "TASK_CORRECTED_REQUEST", 1)
        before, after = gold_lines(client, scenario)
        transcripts.append([say(client, scenario, line) for line in before + after])
        scores.append({key: value for key, value in evaluate(client, scenario).items() if key != "id"})
    assert transcripts[0] == transcripts[1] and scores[0] == scores[1]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_uncorrected_day_used_scores_0(client, seed):
    """An agent that takes the first day the customer said, never reading it back."""
    scenario = hard_scenario(client, "TASK_CORRECTED_REQUEST", seed)
    details = scenario["details"]
    first_day = details["customer"]["travel_date"]
    assert first_day != details["flight"]["departure"]
    before, after = gold_lines(client, scenario)
    say(client, scenario, before[0])
    assert "Sorry, I got that wrong" not in say(client, scenario, before[1])
    found = client.get(f"/api/flights/search?scenario={scenario['id']}&from={details['flight']['from']}"
                       f"&to={details['flight']['to']}&date={first_day}").json["flights"]
    code = details["confirmation-code"]
    moved = client.put(f"/api/bookings/{code}/flights?scenario={scenario['id']}",
                       json={"outward_flight_id": found[0]["id"]})
    assert moved.status_code == 200
    for line in after:
        say(client, scenario, line)
    result = evaluate(client, scenario)
    assert (result["success"], result["state_ok"]) == (0, False)


def test_the_namesakes_booking_cancelled_scores_0(client):
    scenario = hard_scenario(client, "TASK_FIND_BY_NAME", 0)
    facts = scenario["details"]["customer"]
    found = client.get(f"/api/bookings?scenario={scenario['id']}&last_name={facts['last_name']}"
                       f"&date={facts['travel_date']}").json["bookings"]
    assert len(found) == 2 and len({b["first_name"] for b in found}) == 2
    other = next(b["code"] for b in found if b["code"] != scenario["details"]["confirmation-code"])
    before, after = gold_lines(client, scenario)
    for line in before:
        say(client, scenario, line)
    assert client.post(f"/api/bookings/{other}/cancel?scenario={scenario['id']}",
                       json={"confirmation_code": other}).status_code == 200
    for line in after:
        say(client, scenario, line)
    result = evaluate(client, scenario)
    assert (result["success"], result["state_ok"]) == (0, False)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_second_cheapest_flight_booked_scores_0(client, seed):
    scenario = hard_scenario(client, "TASK_BOOK_CONSTRAINED", seed)
    details = scenario["details"]
    runner_up = {**details["flight"], "outward-flight-number": details["runner-up"]}
    before, after = gold_lines(client, scenario)
    for line in before:
        say(client, scenario, line)
    booking = next(call for call in evaluate(client, scenario)["gold_calls"] if call["operation"] == "create_booking")
    made = perform(client, {**scenario, "details": {**details, "flight": runner_up}}, booking)
    assert made.status_code == 201
    for line in after:
        say(client, scenario, line.replace("{new booking code}", made.json["booking"]["code"]))
    result = evaluate(client, scenario)
    assert (result["success"], result["state_ok"]) == (0, False)
    assert result["state_check"]["reason"].startswith("the new booking: flights outward is " + details["runner-up"])


def test_a_booking_in_the_wrong_fare_scores_0(client):
    scenario = hard_scenario(client, "TASK_BOOK_CONSTRAINED", 0)
    assert scenario["details"]["fare"] == "Flex"
    booking = next(call for call in evaluate(client, scenario)["gold_calls"] if call["operation"] == "create_booking")
    made = perform(client, scenario, {**booking, "params": {**booking["params"], "fare": "Standard"}})
    assert made.status_code == 201 and made.json["booking"]["fare"] == "Standard"
    result = evaluate(client, scenario)
    assert result["success"] == 0 and result["state_check"]["reason"] == \
        "the new booking: fare is 'Standard', expected 'Flex'"


def test_a_name_replaced_instead_of_corrected_scores_0_and_is_a_violation(client):
    scenario = hard_scenario(client, "TASK_TWO_REQUESTS", 0)
    code = scenario["details"]["confirmation-code"]
    before, after = gold_lines(client, scenario)
    for line in before:
        say(client, scenario, line)
    replaced = client.patch(f"/api/bookings/{code}/passenger?scenario={scenario['id']}",
                            json={"first_name": "Bartholomew"})
    assert replaced.status_code == 200
    result = evaluate(client, scenario)
    assert (result["success"], result["state_ok"], result["policy_violations"]) == (0, False, 1)
    assert "update_passenger broke the policy" not in result["state_check"]["reason"]  # the state is named first


def test_a_transfer_the_call_did_not_need_fails_it_and_says_so(client):
    scenario = hard_scenario(client, "TASK_POLICY_CANCEL", 2)  # refused (Basic): the agent must tell the rule
    play_gold(client, scenario)
    assert evaluate(client, scenario)["success"] == 1
    assert client.post(f"/api/customer/transfer?scenario={scenario['id']}", json={"summary": "Refund?"}).status_code == 201
    result = evaluate(client, scenario)
    assert (result["success"], result["transferred"], result["said_ok"]) == (0, True, True)
    assert result["state_check"]["reason"] == "the call was transferred to a supervisor, though the agent could handle it"


def test_every_hard_answer_says_whether_the_call_was_transferred(client):
    scenario = hard_scenario(client, "TASK_POLICY_CHANGE", 0)
    assert evaluate(client, scenario)["transferred"] is False
