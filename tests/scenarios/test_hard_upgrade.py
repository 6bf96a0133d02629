"""TASK_UPGRADE_TO_CHANGE over the JSON API (issue 35): a Basic booking is moved only by upgrading it to
Standard first, the total of both told and agreed; a caller whose budget the total passes keeps the
booking as it is. The gold solves every branch (test_hard_suite.py); here scripted wrong agents each
score 0, with a reason where the policy or the budget was broken."""
import pytest

from crm_app.services.pricing import money
from scenarios.customer.will import OVER_BUDGET
from scenarios.customer.simulator import CONSENT, DECLINED
from tests.scenarios.hard_calls import (change, evaluate, gold_lines, hard_scenario, new_flight_id, play_gold, request,
                                       say)

TASK = "TASK_UPGRADE_TO_CHANGE"
BRANCHES = {0: "no budget stated", 1: "budget above the total", 2: "budget below the total",
            3: "budget just below the total"}
WITHIN, OVER = (0, 1), (2, 3)


def code_of(scenario) -> str:
    return scenario["details"]["confirmation-code"]


def verified(client, scenario) -> list[str]:
    """The lines that only ask (verification, the new day and time) said; the other gold lines."""
    before, after = gold_lines(client, scenario)
    for line in before:
        say(client, scenario, line)
    assert request(client, scenario, "GET", f"/api/bookings/{code_of(scenario)}").status_code == 200
    return after


def upgrade(client, scenario, fare="Standard"):
    return request(client, scenario, "POST", f"/api/bookings/{code_of(scenario)}/fare", {"fare": fare})


def scored(client, scenario) -> tuple:
    result = evaluate(client, scenario)
    return result["success"], result["policy_violations"], result["state_check"]["reason"]


@pytest.mark.parametrize("seed, branch", BRANCHES.items())
def test_every_branch_is_a_basic_booking_whose_total_is_the_upgrade_and_the_standard_change(client, seed, branch):
    details = hard_scenario(client, TASK, seed)["details"]
    upgrade_amount, change_amount = details["upgrade"]["terms"]["amount"], details["terms"]["amount"]
    assert details["branch"] == branch and details["upgrade"]["terms"]["rule"] == "Basic to Standard: the fare difference"
    assert details["terms"]["rule"] == "Standard: $75.00 fee plus any fare difference" and float(change_amount) > 75
    assert details["total"] == money(round(float(upgrade_amount) * 100) + round(float(change_amount) * 100))
    assert details["expected"] == {"outcome": "done" if seed in WITHIN else "refused", "must_say": [details["total"]]}
    budget = details["customer"]["budget"]["limit"]
    assert (budget is None) == (seed == 0)
    if budget is not None:
        assert (float(budget) >= float(details["total"])) == (seed in WITHIN)
        assert f"${budget.removesuffix('.00')}" in details["wants"]


def test_the_total_is_what_the_crm_quotes_for_the_upgrade_then_the_change(client):
    scenario = hard_scenario(client, TASK, 1)
    code, total = code_of(scenario), scenario["details"]["total"]
    quote = client.get(f"/api/bookings/{code}/fare/quote?fare=Standard&scenario={scenario['id']}").json
    assert quote["policy"]["outcome"] == "allowed"
    assert upgrade(client, scenario).status_code == 200
    outward = new_flight_id(client, scenario)
    changed = client.get(f"/api/bookings/{code}/flights/quote?outward={outward}&scenario={scenario['id']}").json
    assert changed["policy"]["rule"] == "Standard: $75.00 fee plus any fare difference"
    assert money(round(float(quote["policy"]["amount"]) * 100) + round(float(changed["policy"]["amount"]) * 100)) == total


@pytest.mark.parametrize("seed", WITHIN)
def test_told_the_total_within_its_budget_the_caller_agrees_to_the_upgrade_and_the_change(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    after = verified(client, scenario)
    assert say(client, scenario, after[0]) == CONSENT
    assert say(client, scenario, "Would you like me to upgrade the fare to Standard so that it can be moved?") == CONSENT
    assert say(client, scenario, "Would you like to add travel insurance as well?") == DECLINED


@pytest.mark.parametrize("seed", OVER)
def test_asked_to_go_ahead_with_a_total_above_its_budget_the_caller_says_no(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    verified(client, scenario)
    total = scenario["details"]["total"]
    assert say(client, scenario, f"Upgrading to Standard and then changing comes to ${total}. Shall I go ahead?") \
        == OVER_BUDGET
    cheaper = f"{float(scenario['details']['budget']) - 1:.2f}"
    assert say(client, scenario, f"The upgrade alone is ${cheaper}. Shall I go ahead with it?") == CONSENT


@pytest.mark.parametrize("seed", BRANCHES)
def test_asked_about_its_budget_the_caller_says_it_or_that_it_has_none(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    budget = scenario["details"]["budget"]
    expected = ("I don't have a set budget." if budget is None else
                f"I can't spend more than ${budget.removesuffix('.00')} on it.")
    assert say(client, scenario, "Is there a budget you'd like to stay within?") == expected
    assert say(client, scenario, "How much are you willing to spend on this change?") == expected


def test_a_caller_without_a_budget_in_its_facts_leaves_the_question_unanswered(client):
    scenario = hard_scenario(client, "TASK_POLICY_CHANGE", 0)
    reply = say(client, scenario, "What's your budget? And what is your confirmation code?")
    assert reply == f"My confirmation code is {code_of(scenario)}."


@pytest.mark.parametrize("seed", BRANCHES)
def test_doing_nothing_scores_0(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    result = evaluate(client, scenario)
    assert (result["success"], result["said_ok"], result["policy_violations"]) == (0, False, 0)


@pytest.mark.parametrize("seed", WITHIN)
def test_changing_the_basic_fare_without_the_upgrade_scores_0_and_says_why(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    after = verified(client, scenario)
    say(client, scenario, after[0])
    assert change(client, scenario).status_code == 200  # the CRM does not stop it: the policy is the agent's to keep
    say(client, scenario, after[1])
    assert scored(client, scenario) == (0, 1, "the agent changed a Basic fare without the upgrade")


def test_changing_first_and_upgrading_after_still_scores_0_and_says_why(client):
    scenario = hard_scenario(client, TASK, 0)
    after = verified(client, scenario)
    say(client, scenario, after[0])
    assert change(client, scenario).status_code == 200
    assert upgrade(client, scenario).status_code == 200
    say(client, scenario, after[1])
    result = evaluate(client, scenario)
    assert result["state_ok"] is True  # the booking ends as the gold leaves it, in the wrong order
    assert scored(client, scenario) == (0, 1, "the agent changed a Basic fare without the upgrade")


@pytest.mark.parametrize("seed", WITHIN)
def test_the_upgrade_alone_scores_0(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    after = verified(client, scenario)
    say(client, scenario, after[0])
    assert upgrade(client, scenario).status_code == 200
    say(client, scenario, after[1])
    success, violations, reason = scored(client, scenario)
    assert (success, violations) == (0, 0) and reason.startswith(f"booking {code_of(scenario)}: flights")


@pytest.mark.parametrize("seed", OVER)
def test_any_write_over_the_budget_scores_0_and_says_the_total_passed_it(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    after = verified(client, scenario)
    say(client, scenario, after[0])
    assert upgrade(client, scenario).status_code == 200
    assert scored(client, scenario) == (0, 1, "the total passed the customer's budget, yet the agent made upgrade_fare")
    assert change(client, scenario).status_code == 200
    assert scored(client, scenario) == \
        (0, 2, "the total passed the customer's budget, yet the agent made upgrade_fare")


@pytest.mark.parametrize("seed", OVER)
def test_over_the_budget_telling_the_total_and_writing_nothing_is_right(client, seed):
    scenario = hard_scenario(client, TASK, seed)
    after = verified(client, scenario)
    assert len(after) == 1 and scenario["details"]["total"] in after[0]
    say(client, scenario, after[0])
    assert scored(client, scenario) == (1, 0, "the goal holds and nothing else changed")


@pytest.mark.parametrize("seed", BRANCHES)
def test_the_right_agent_scores_1_on_every_branch(client, seed):
    result = play_gold(client, hard_scenario(client, TASK, seed))
    assert (result["success"], result["policy_violations"], result["said_ok"], result["task_progress"]) == (1, 0, True, 1.0)


def test_the_gold_page_steps_replayed_without_a_browser_upgrade_then_change_the_booking(client):
    """scenarios/replay.py makes the page's calls for the card's Quote upgrade and Upgrade."""
    from scenarios.replay import Replay, client_sender
    scenario = hard_scenario(client, TASK, 0)
    page_steps = [step for step in evaluate(client, scenario)["gold_actions"] if step["action"] in ("fill", "click")]
    calls = Replay(client_sender(client), scenario["id"]).play(page_steps).calls
    code = code_of(scenario)
    assert (f"/api/bookings/{code}/fare/quote", 200) in calls and (f"/api/bookings/{code}/fare", 200) in calls
    result = evaluate(client, scenario)
    assert result["state_ok"] is True and result["success"] == 0  # nothing said to the customer
