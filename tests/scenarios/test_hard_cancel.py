"""TASK_POLICY_CANCEL over the JSON API: scripted wrong agents that must each score 0 (every branch
solved by following the gold: test_hard_suite.py), and what the agent is told of a hard scenario."""
import pytest

from tests.scenarios.hard_calls import evaluate, gold_lines, hard_scenario, request, say

TASK = "TASK_POLICY_CANCEL"
BRANCHES = {0: "refund", 1: "credit", 2: "refused", 3: "refund, just booked", 4: "refused, departing soon"}


def cancel(client, scenario):
    code = scenario["details"]["confirmation-code"]
    return request(client, scenario, "POST", f"/api/bookings/{code}/cancel", {"confirmation_code": code})


def look_up(client, scenario):
    code = scenario["details"]["confirmation-code"]
    return request(client, scenario, "GET", f"/api/bookings/{code}")


def play(client, scenario, verify=True, act=None, tell=True):
    """Verify the caller, look the booking up, cancel it when the gold does (or as `act` says), tell."""
    before, after = gold_lines(client, scenario)
    if verify:
        for line in before:
            say(client, scenario, line)
    assert look_up(client, scenario).status_code == 200
    if act if act is not None else scenario["details"]["expected"]["outcome"] == "done":
        assert cancel(client, scenario).status_code == 200
    if tell:
        for line in after:
            say(client, scenario, line)
    return evaluate(client, scenario)


@pytest.mark.parametrize("seed", BRANCHES)
def test_an_agent_that_does_nothing_scores_0_on_every_branch(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    result = evaluate(client, scenario)
    assert result["success"] == 0 and result["said_ok"] is False
    assert result["state_check"]["reason"].startswith("the agent never told the customer") or not result["state_ok"]


@pytest.mark.parametrize("seed", [2, 4])
def test_the_refused_cancellation_made_anyway_scores_0_and_is_a_violation(client, seed):
    result = play(client, hard_scenario(client, TASK, seed), act=True)
    assert (result["success"], result["state_ok"], result["policy_violations"]) == (0, False, 1)


def test_a_cancellation_before_the_caller_is_verified_scores_0(client):
    scenario = hard_scenario(client, TASK, 0)
    before, after = gold_lines(client, scenario)
    assert cancel(client, scenario).status_code == 200
    for line in before + after:
        say(client, scenario, line)
    result = evaluate(client, scenario)
    assert (result["success"], result["state_ok"], result["verified_first"]) == (0, True, False)
    assert result["state_check"]["reason"] == "cancel_booking succeeded before the caller was verified"


def test_a_wrong_refund_amount_told_scores_0(client):
    scenario = hard_scenario(client, TASK, 0)
    amount = scenario["details"]["expected"]["must_say"][0]
    play(client, scenario, tell=False)
    say(client, scenario, f"Your booking is cancelled, and ${float(amount) + 10:.2f} will be refunded.")
    result = evaluate(client, scenario)
    assert (result["success"], result["state_ok"], result["said_ok"]) == (0, True, False)
    assert result["state_check"]["reason"] == f"the agent never told the customer {amount}"


def test_the_agent_is_told_only_the_briefing_and_the_opening_line(client):
    told = client.get(f"/generate-random-scenario?suite=hard&task={TASK}&seed=0").json
    assert set(told) == {"id", "url", "instruction", "conversation"}
    assert "policy" in told["instruction"] and told["conversation"][0]["role"] == "CUS"
    result = client.get(f"/evaluate?scenario={told['id']}").json  # without the operator token
    assert all("text" not in step and "tells" not in step for step in result["gold_actions"])
