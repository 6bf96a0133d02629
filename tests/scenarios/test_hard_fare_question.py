"""TASK_FARE_QUESTION over the JSON API: telling the amount (or the refusing rule) and changing
nothing succeeds on every branch; making the change anyway, or telling nothing, scores 0."""
import pytest

from tests.scenarios.hard_calls import change, evaluate, gold_lines, hard_scenario, new_flight_id, request, say

TASK = "TASK_FARE_QUESTION"


def play(client, scenario, act=False):
    before, after = gold_lines(client, scenario)
    for line in before:
        say(client, scenario, line)
    code = scenario["details"]["confirmation-code"]
    assert request(client, scenario, "GET", f"/api/bookings/{code}").status_code == 200
    quote = client.get(f"/api/bookings/{code}/flights/quote?scenario={scenario['id']}"
                       f"&outward={new_flight_id(client, scenario)}").json
    assert quote["policy"] == scenario["details"]["terms"]
    if act:
        assert change(client, scenario).status_code == 200
    for line in after:
        say(client, scenario, line)
    return evaluate(client, scenario)


@pytest.mark.parametrize("seed", range(5))
def test_every_branch_is_solved_by_telling_and_changing_nothing(client, seed):
    result = play(client, hard_scenario(client, TASK, seed))
    assert (result["success"], result["state_ok"], result["said_ok"], result["policy_violations"]) == \
        (1, True, True, 0), result["state_check"]


@pytest.mark.parametrize("seed", [0, 2])
def test_making_the_change_anyway_scores_0(client, seed):
    result = play(client, hard_scenario(client, TASK, seed), act=True)
    assert (result["success"], result["state_ok"]) == (0, False)
    assert result["policy_violations"] == (1 if seed == 2 else 0)


def test_an_agent_that_does_nothing_scores_0(client):
    assert evaluate(client, hard_scenario(client, TASK, 0))["success"] == 0
