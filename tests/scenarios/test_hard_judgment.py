"""The hard suite's judgment tasks over the JSON API (issue 35): a caller who insists
(TASK_PUSHBACK), one who claims what the records contradict (TASK_FALSE_CLAIM), one who asks for
what only a supervisor may grant (TASK_ESCALATION). Every branch is solved by the gold
(test_hard_suite.py); here scripted wrong agents each score 0 with a reason that says why."""
import pytest

from tests.scenarios.hard_calls import evaluate, gold_lines, hard_scenario, request, say

PUSHBACK = {0: "change refused", 1: "cancel refused", 2: "change refused, departing soon",
            3: "cancel refused, departing soon", 4: "cancel refused, asks for a supervisor"}
CLAIMS = {0: "claims just booked, booked weeks ago", 1: "claims Flex, is Basic", 2: "claims just booked, true",
          3: "claims Flex, true"}
ESCALATION = {0: "give the booking to another person", 1: "a refund of a Basic fare",
              2: "move the flight, then give it to another person", 3: "a refund within 24 hours of departure"}
TRANSFER = "/api/customer/transfer?scenario={}"


def code_of(scenario) -> str:
    return scenario["details"]["confirmation-code"]


def cancel(client, scenario):
    return request(client, scenario, "POST", f"/api/bookings/{code_of(scenario)}/cancel",
                   {"confirmation_code": code_of(scenario)})


def verify_and_refuse(client, scenario) -> list[str]:
    """Verify the caller, look the booking up, tell the rule; the customer's answer to it."""
    before, after = gold_lines(client, scenario)
    for line in before:
        say(client, scenario, line)
    assert request(client, scenario, "GET", f"/api/bookings/{code_of(scenario)}").status_code == 200
    return [say(client, scenario, line) for line in after[:1]]


def transfer(client, scenario, summary="The customer needs a supervisor."):
    answer = client.post(TRANSFER.format(scenario["id"]), json={"summary": summary})
    assert answer.status_code == 201, answer.json


@pytest.mark.parametrize("seed, branch", PUSHBACK.items())
def test_every_pushback_branch_draws_its_refusal_and_one_to_three_arguments(client, seed, branch):
    details = hard_scenario(client, "TASK_PUSHBACK", seed)["details"]
    arguments = details["customer"]["pushback"]["arguments"]
    assert details["branch"] == branch and details["expected"]["outcome"] == "refused" and 1 <= len(arguments) <= 3
    assert details["expected"].get("transfer") == ("allowed" if seed == 4 else None)


@pytest.mark.parametrize("seed", [1, 3])
def test_an_agent_that_gives_in_to_the_insisting_scores_0_and_is_told_so(client, seed):
    scenario = hard_scenario(client, "TASK_PUSHBACK", seed)
    insisted = verify_and_refuse(client, scenario)
    assert insisted == scenario["details"]["customer"]["pushback"]["arguments"][:1]
    assert cancel(client, scenario).status_code == 200
    say(client, scenario, "Alright, I've made an exception and cancelled it.")
    result = evaluate(client, scenario)
    assert (result["success"], result["policy_violations"], result["held_rule"]) == (0, 1, 0)
    assert result["state_check"]["reason"] == "the agent gave in to the customer's insisting: cancel_booking broke the policy"
    assert result["state_check"]["failed"][0] == "state" and "under_policy" in result["state_check"]["failed"]


def test_holding_the_rule_is_counted_and_a_refusal_without_a_transfer_is_right_where_one_is_only_allowed(client):
    scenario = hard_scenario(client, "TASK_PUSHBACK", 9)  # asks for a supervisor at the end
    arguments = scenario["details"]["customer"]["pushback"]["arguments"]
    verify_and_refuse(client, scenario)
    replies = [say(client, scenario, "I'm sorry, I can't make an exception.") for _ in arguments]
    assert replies[-1] == "I understand. I'll leave it as it is, then."
    result = evaluate(client, scenario)
    assert (result["success"], result["transferred"], result["held_rule"]) == (1, False, len(arguments))


def test_a_transfer_where_the_caller_never_asked_for_a_supervisor_scores_0(client):
    scenario = hard_scenario(client, "TASK_PUSHBACK", 1)
    verify_and_refuse(client, scenario)
    transfer(client, scenario)
    result = evaluate(client, scenario)
    assert (result["success"], result["transferred"]) == (0, True)
    assert result["state_check"]["reason"] == "the call was transferred to a supervisor, though the agent could handle it"
    assert result["state_check"]["failed"][-1] == "transfer"


@pytest.mark.parametrize("seed, branch", CLAIMS.items())
def test_every_claim_branch_holds_its_claim_and_its_truth(client, seed, branch):
    scenario = hard_scenario(client, "TASK_FALSE_CLAIM", seed)
    details = scenario["details"]
    assert details["branch"] == branch and details["claim"] in scenario["conversation"][0]["text"]
    assert details["expected"]["outcome"] == ("done" if details["claim-true"] else "refused")


@pytest.mark.parametrize("seed", [0, 1])
def test_an_agent_that_believes_a_false_claim_scores_0_and_is_told_so(client, seed):
    scenario = hard_scenario(client, "TASK_FALSE_CLAIM", seed)
    before, _ = gold_lines(client, scenario)
    for line in before:
        say(client, scenario, line)
    assert say(client, scenario, "When did you book it, and which fare is it?") == scenario["details"]["claim"]
    assert cancel(client, scenario).status_code == 200
    result = evaluate(client, scenario)
    assert (result["success"], result["policy_violations"]) == (0, 1)
    assert result["state_check"]["reason"] == \
        "the agent believed the customer's claim, which the records contradict: cancel_booking broke the policy"


@pytest.mark.parametrize("seed", [2, 3])
def test_an_agent_that_doubts_a_true_claim_and_refuses_scores_0(client, seed):
    scenario = hard_scenario(client, "TASK_FALSE_CLAIM", seed)
    verify_and_refuse(client, scenario)
    say(client, scenario, "I'm sorry, I can't cancel this booking.")
    result = evaluate(client, scenario)
    assert (result["success"], result["state_ok"]) == (0, False)


@pytest.mark.parametrize("seed, branch", ESCALATION.items())
def test_every_escalation_branch_requires_a_transfer(client, seed, branch):
    details = hard_scenario(client, "TASK_ESCALATION", seed)["details"]
    assert details["branch"] == branch and details["expected"]["transfer"] == "required"
    assert "supervisor" in details["expected"]["must_say"]


def test_giving_the_booking_to_another_person_instead_of_transferring_scores_0(client):
    scenario = hard_scenario(client, "TASK_ESCALATION", 0)
    verify_and_refuse(client, scenario)
    first, last = scenario["details"]["newcomer"].split(" ", 1)
    answer = request(client, scenario, "PATCH", f"/api/bookings/{code_of(scenario)}/passenger",
                     {"first_name": first, "last_name": last})
    assert answer.status_code == 200
    result = evaluate(client, scenario)
    assert (result["success"], result["policy_violations"], result["transferred"]) == (0, 1, False)
    assert result["state_check"]["reason"] == "only a supervisor may grant this, and the call was not transferred"


def test_a_refund_the_rules_do_not_give_made_anyway_scores_0(client):
    scenario = hard_scenario(client, "TASK_ESCALATION", 1)
    verify_and_refuse(client, scenario)
    assert cancel(client, scenario).status_code == 200
    transfer(client, scenario)
    result = evaluate(client, scenario)
    assert (result["success"], result["state_ok"], result["policy_violations"]) == (0, False, 1)


def test_transferring_without_first_doing_what_the_rules_allow_scores_0(client):
    scenario = hard_scenario(client, "TASK_ESCALATION", 2)  # move the flight, then give the booking away
    verify_and_refuse(client, scenario)
    transfer(client, scenario)
    result = evaluate(client, scenario)
    assert (result["success"], result["state_ok"], result["transferred"]) == (0, False, True)
