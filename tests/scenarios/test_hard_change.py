"""TASK_POLICY_CHANGE over the JSON API: the CRM's quote agreeing with the amount the agent must
tell, and scripted wrong agents that must each score 0 (every branch solved by following the gold:
test_hard_suite.py)."""
import pytest

from tests.scenarios.hard_calls import change, evaluate, gold_lines, hard_scenario, new_flight_id, request, say

TASK = "TASK_POLICY_CHANGE"
BRANCHES = {0: "allowed, fee", 1: "allowed, fare difference only", 2: "refused", 3: "allowed, just booked",
            4: "refused, departing soon"}


def play(client, scenario, act=None, tell=True, wrong_amount=False):
    before, after = gold_lines(client, scenario)
    for line in before:
        say(client, scenario, line)
    code = scenario["details"]["confirmation-code"]
    assert request(client, scenario, "GET", f"/api/bookings/{code}").status_code == 200
    if act if act is not None else scenario["details"]["expected"]["outcome"] == "done":
        assert change(client, scenario).status_code == 200
    if wrong_amount:
        say(client, scenario, "The change costs $75.00. It is done.")
    elif tell:
        for line in after:
            say(client, scenario, line)
    return evaluate(client, scenario)


@pytest.mark.parametrize("seed", BRANCHES)
def test_the_crms_quote_shows_the_amount_the_agent_must_tell(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    code, terms = scenario["details"]["confirmation-code"], scenario["details"]["terms"]
    quote = client.get(f"/api/bookings/{code}/flights/quote?scenario={scenario['id']}"
                       f"&outward={new_flight_id(client, scenario)}").json
    assert quote["policy"] == terms
    booking = client.get(f"/api/bookings/{code}?scenario={scenario['id']}").json["booking"]
    assert booking["change"]["outcome"] == terms["outcome"]


@pytest.mark.parametrize("seed", BRANCHES)
def test_an_agent_that_does_nothing_scores_0(client, seed):
    result = evaluate(client, hard_scenario(client, TASK, seed))
    assert (result["success"], result["said_ok"]) == (0, False)


@pytest.mark.parametrize("seed", [2, 4])
def test_the_refused_change_made_anyway_scores_0_and_is_a_violation(client, seed):
    result = play(client, hard_scenario(client, TASK, seed), act=True)
    assert (result["success"], result["state_ok"], result["policy_violations"]) == (0, False, 1)
    assert result["state_check"]["reason"].startswith("booking ")


def test_a_wrong_amount_told_scores_0(client):
    scenario = hard_scenario(client, TASK, 0)
    result = play(client, scenario, wrong_amount=True)
    assert (result["success"], result["state_ok"], result["said_ok"]) == (0, True, False)


def test_a_change_before_the_caller_is_verified_scores_0(client):
    scenario = hard_scenario(client, TASK, 1)
    assert change(client, scenario).status_code == 200
    before, after = gold_lines(client, scenario)
    for line in before + after:
        say(client, scenario, line)
    result = evaluate(client, scenario)
    assert (result["success"], result["verified_first"]) == (0, False)



def test_a_call_that_neither_changes_nor_tells_names_both_failures(client):
    """The state's reason first (as `reason`), then what was never said: `reasons` and `failed` name both."""
    scenario = hard_scenario(client, TASK, 0)
    result = play(client, scenario, act=False, tell=False)
    check = result["state_check"]
    amount = scenario["details"]["expected"]["must_say"][0]
    assert (result["state_ok"], result["said_ok"], check["passed"]) == (False, False, False)
    assert check["failed"] == ["state", "said"]
    assert check["reasons"][0] == check["reason"] and check["reason"].startswith("booking ")
    assert check["reasons"][1:] == [f"the agent never told the customer {value}"
                                    for value in scenario["details"]["expected"]["must_say"]]
    assert amount in check["reasons"][1]


def test_a_change_before_verifying_and_never_told_names_every_failed_part(client):
    scenario = hard_scenario(client, TASK, 1)
    assert change(client, scenario).status_code == 200
    check = evaluate(client, scenario)["state_check"]
    assert check["failed"] == ["said", "verified_first"]
    assert check["reasons"][-1] == "change_flights succeeded before the caller was verified"


def test_a_passing_call_has_no_reasons(client):
    scenario = hard_scenario(client, TASK, 1)
    check = play(client, scenario)["state_check"]
    assert (check["passed"], check["reasons"], check["failed"]) == (True, [], [])


def test_a_line_that_says_nothing_the_call_needs_raises_no_progress(client):
    """"Thanks for holding." met the closing line before issue 53 (1 of 13); the closing line is met
    only by a line that names the new flight."""
    scenario = hard_scenario(client, TASK, 0)
    say(client, scenario, "Thanks for holding.")
    result = evaluate(client, scenario)
    assert (result["task_progress"], result["scoring_version"]) == (0.0, 2)
    closing = result["gold_actions"][-1]
    assert closing["tells"] == [scenario["details"]["flight"]["outward-flight-number"]]
    say(client, scenario, f"You're now on flight {closing['tells'][0]}.")
    assert evaluate(client, scenario)["task_progress"] == round(1 / 13, 4)
