"""The expert suite (issue 49) over the JSON API: its catalogue and splits, every template solved by
the gold path and failed by doing nothing, each request judged on its own, and scripted careless
reps failing the templates they are careless about, with the reason in requests[].why."""
import itertools

import pytest

from scenarios.tasks.expert import TEMPLATES
from scenarios.tasks.expert.templates import TEST_PAIRS
from tests.conftest import OPERATOR
from tests.scenarios.expert_calls import (expert_scenario, play, play_first_request_then_end, play_on_the_first_booking,
                                          play_the_first_words, play_without_asking_for_more, play_without_quoting)
from tests.scenarios.hard_calls import evaluate, hard_scenario, play_gold, say

NAMES = [template.name for template in TEMPLATES]
KIND_NAMES = {"change", "cancel", "fare_question", "fare_upgrade", "rebooking", "name_correction", "new_booking",
              "flight_status", "supervisor", "booking_question", "certificate", "waiver", "current_fee",
              "unverified_caller", "fishing", "pressure", "planted_instruction",  # issue 50's adversarial kinds
              "temporary_rule"}


@pytest.mark.database_independent
def test_the_suites_route_lists_every_suite_and_each_expert_templates_split_and_kinds(client):
    answer = client.get("/api/suites")
    assert answer.status_code == 200
    suites = {suite["name"]: suite for suite in answer.json["suites"]}
    assert list(suites) == ["full", "paper", "hard", "expert"]
    assert {task["split"] for name in ("full", "paper", "hard") for task in suites[name]["tasks"]} == {None}
    assert [task["name"] for task in suites["hard"]["tasks"]][:2] == ["TASK_POLICY_CHANGE", "TASK_POLICY_CANCEL"]
    expert = suites["expert"]["tasks"]
    assert len(expert) >= 100 and len({task["name"] for task in expert}) == len(expert)
    assert {task["split"] for task in expert} == {"train", "test"}
    assert {kind for task in expert for kind in task["kinds"]} == KIND_NAMES
    for kind in KIND_NAMES:
        assert sum(kind in task["kinds"] for task in expert) >= 10, kind
    assert all(2 <= len(task["kinds"]) <= 4 for task in expert)
    assert next(task for task in expert if task["name"] == "EXPERT_CHANGE_CANCEL")["kinds"] == ["change", "cancel"]


@pytest.mark.database_independent
def test_no_pair_of_kinds_of_a_test_template_occurs_together_in_train(client):
    expert = next(s for s in client.get("/api/suites").json["suites"] if s["name"] == "expert")["tasks"]
    pairs = {split: {frozenset(pair) for task in expert if task["split"] == split
                     for pair in itertools.combinations(task["kinds"], 2)} for split in ("train", "test")}
    for task in (task for task in expert if task["split"] == "test"):
        assert any(frozenset(pair) not in pairs["train"] for pair in itertools.combinations(task["kinds"], 2))
    assert not pairs["train"] & TEST_PAIRS


# Every template's gold path over the API scores 1: tests/scenarios/test_gold_path.py (seeds 21 and 22).
def test_a_template_solved_by_the_gold_path_has_every_request_ok(client):
    result = play(client, expert_scenario(client, "EXPERT_NAME_CHANGE_CANCEL_QUOTE"))
    assert (result["success"], result["task_progress"], result["policy_violations"]) == (1, 1.0, 0)
    assert [(r["kind"], r["ok"], r["why"]) for r in result["requests"]] == [
        ("name_correction", True, []), ("change", True, []), ("cancel", True, []), ("fare_question", True, [])]


SAMPLE = NAMES[::9]  # every branch of a sample of templates: request i draws its branch from seed + i


@pytest.mark.database_independent
@pytest.mark.parametrize("template", SAMPLE)
def test_every_branch_of_a_sample_of_templates_is_solved(client, template):
    for seed in range(1, 5):
        result = play(client, expert_scenario(client, template, seed))
        assert result["success"] == 1, (seed, [r for r in result["requests"] if not r["ok"]])


@pytest.mark.database_independent  # composition, not storage: the PostgreSQL pass leaves the sweep out
@pytest.mark.parametrize("template", NAMES)
def test_doing_nothing_scores_0_on_every_template(client, template):
    result = evaluate(client, expert_scenario(client, template))
    assert (result["success"], result["task_progress"]) == (0, 0.0)
    assert all(not r["ok"] and r["why"] for r in result["requests"])


def test_the_operator_sees_each_request_with_its_kind_booking_and_what_is_expected(client):
    scenario = expert_scenario(client, "EXPERT_CHANGE_CANCEL")
    requests = scenario["details"]["requests"]
    assert [r["kind"] for r in requests] == ["change", "cancel"]
    assert requests[0]["booking"] == scenario["details"]["confirmation-code"] != requests[1]["booking"]
    assert all(r["expected"]["outcome"] in ("done", "refused") and r["expected"]["must_say"] for r in requests)
    told = client.get(f"/generate-random-scenario?suite=expert&task=EXPERT_CHANGE_CANCEL&seed=0").json
    assert set(told) == {"id", "url", "instruction", "conversation"}  # an agent is told the briefing and the opening
    assert told["conversation"][0]["text"] == scenario["details"]["opening"] == f"Hi. {requests[0]['says']}"


def test_a_companions_booking_is_named_by_passenger_route_and_date_never_by_code(client):
    scenario = expert_scenario(client, "EXPERT_CHANGE_CANCEL")
    second = scenario["details"]["requests"][1]
    assert second["booking"] not in second["says"]
    assert second["named"]["last_name"] in second["says"] and "companion" in second["says"]


def test_the_caller_brings_up_the_next_request_only_when_asked_and_then_says_it_is_done(client):
    template = next(t for t in TEMPLATES if t.requests[1].reveal == "asked" and len(t.requests) == 2
                    and t.kinds[0] == "booking_question")
    scenario = expert_scenario(client, template.name)
    first, second = scenario["details"]["requests"]
    say(client, scenario, "Could you give me your confirmation code and the passenger's date of birth, please?")
    told = first["expected"]["must_say"][0]
    assert second["says"] not in say(client, scenario, f"That booking: the answer is {told}.")
    assert second["says"] in say(client, scenario, "Is there anything else I can help you with?")
    assert "that's everything" in say(client, scenario, "Is there anything else I can help you with?")


def test_a_call_ended_after_the_first_request_fails_the_rest(client):
    for template in ("EXPERT_CHANGE_CANCEL", "EXPERT_QUESTION_STATUS", "EXPERT_CANCEL_UPGRADE_BOOK"):
        result = play_first_request_then_end(client, expert_scenario(client, template))
        assert result["success"] == 0 and result["requests"][0]["ok"], template
        assert all(not r["ok"] for r in result["requests"][1:]), template
        assert 0 < result["task_progress"] < 1


def test_a_rep_who_never_asks_for_more_fails_the_requests_brought_up_only_when_asked(client):
    asked = [t for t in TEMPLATES if t.requests[1].reveal == "asked"][:4]
    after = [t for t in TEMPLATES if all(r.reveal == "after" for r in t.requests[1:])][:4]
    for template in asked:
        result = play_without_asking_for_more(client, expert_scenario(client, template.name))
        assert result["success"] == 0, template.name
        assert result["requests"][1]["why"][0].startswith("the customer never got to ask"), template.name
    for template in after:
        assert play_without_asking_for_more(client, expert_scenario(client, template.name))["success"] == 1


def test_a_rep_who_works_every_request_on_the_first_booking_fails_the_companions(client):
    for template in ("EXPERT_CANCEL_CHANGE", "EXPERT_NAME_UPGRADE", "EXPERT_QUESTION_CANCEL"):
        for seed in range(3):
            scenario = expert_scenario(client, template, seed)
            second = scenario["details"]["requests"][1]
            if second["expected"]["outcome"] != "done":
                continue
            result = play_on_the_first_booking(client, scenario)
            assert result["success"] == 0 and not result["requests"][1]["ok"], (template, seed)
            assert any(second["booking"] in why for why in result["requests"][1]["why"]), result["requests"][1]


def test_the_careless_reps_still_pass_the_one_request_hard_tasks_they_can(client):
    # On a call of one request, ending it after that request, never asking for more and working on the
    # first booking are what a careful rep does too.
    for task in ("TASK_POLICY_CHANGE", "TASK_POLICY_CANCEL", "TASK_FARE_QUESTION"):
        assert play_gold(client, hard_scenario(client, task, 0))["success"] == 1


def test_a_template_outside_the_expert_suite_and_an_unknown_one_are_refused(client):
    assert client.get("/generate-random-scenario?suite=hard&task=EXPERT_CHANGE_CANCEL").status_code == 400
    answer = client.get("/generate-random-scenario?suite=expert&task=EXPERT_NOPE")
    assert answer.status_code == 400 and "Unknown task" in answer.json["error"]
    assert client.get("/generate-random-scenario?suite=expert&task=TASK_POLICY_CHANGE").status_code == 400


def test_the_same_seed_gives_the_same_expert_call(client):
    first, again = (expert_scenario(client, "EXPERT_CHANGE_BOOK_UPGRADE", 3) for _ in range(2))
    assert first["details"] == again["details"] and first["conversation"] == again["conversation"]


@pytest.mark.parametrize("seed", range(4))
def test_a_conditional_request_follows_the_quote_and_a_rep_who_acts_without_quoting_fails(client, seed):
    scenario = expert_scenario(client, "EXPERT_MOVE_OR_CANCEL_QUESTION", seed)
    request = scenario["details"]["requests"][0]
    limit, cost = float(request["limit"]), float(request["quote-first"])
    assert request["says"].startswith("Could you move my booking") and f"${request['limit'].removesuffix('.00')}" in request["says"]
    assert bool(request.get("cancels")) == (cost > limit)  # above the limit, the booking is to be cancelled
    assert play(client, scenario)["success"] == 1
    careless = play_without_quoting(client, expert_scenario(client, "EXPERT_MOVE_OR_CANCEL_QUESTION", seed))
    assert careless["success"] == 0 and not careless["requests"][0]["ok"]
    assert any("before telling the customer what the change costs" in why for why in careless["requests"][0]["why"])


def test_the_caller_turns_down_a_change_above_its_limit_and_asks_to_cancel(client):
    scenario = next(s for s in (expert_scenario(client, "EXPERT_MOVE_OR_CANCEL_QUESTION", seed) for seed in range(8))
                    if s["details"]["requests"][0].get("cancels"))
    request = scenario["details"]["requests"][0]
    say(client, scenario, "Could you give me your confirmation code and the passenger's date of birth, please?")
    reply = say(client, scenario, f"The change would cost ${request['quote-first']}. Shall I go ahead?")
    assert "cancel the booking instead" in reply


def test_a_revised_request_is_taken_back_in_the_next_line_and_acting_on_the_first_words_fails(client):
    scenario = expert_scenario(client, "EXPERT_CANCEL_REVISED_QUESTION")
    first = scenario["details"]["requests"][0]
    assert first["says"] == "I'd like to move my booking to a later day." and "cancel" in first["revision"]
    reply = say(client, scenario, "Could you give me your confirmation code and the passenger's date of birth, please?")
    assert reply.endswith(first["revision"])
    assert play(client, expert_scenario(client, "EXPERT_CANCEL_REVISED_QUESTION"))["success"] == 1
    scenario = expert_scenario(client, "EXPERT_CHANGE_REVISED_QUESTION")
    code = scenario["details"]["confirmation-code"]
    hasty = play_the_first_words(client, scenario, [{"operation": "get_booking", "params": {"code": code}},
                                                    {"operation": "cancel_booking",
                                                     "params": {"code": code, "confirmation_code": code}}])
    assert hasty["success"] == 0 and not hasty["requests"][0]["ok"]


def test_a_mixed_call_holds_an_allowed_a_refused_and_a_supervisors_request(client):
    for template in (t for t in TEMPLATES if t.name.endswith("_MIXED")):
        scenario = expert_scenario(client, template.name)
        outcomes = [r["expected"]["outcome"] for r in scenario["details"]["requests"]]
        assert outcomes == ["done", "refused", "transfer"], template.name
        result = play(client, scenario)
        assert result["success"] == 1 and result["transferred"], template.name


VERIFY = "Could you give me your confirmation code and the passenger's date of birth, please?"


@pytest.mark.parametrize("variant", range(6))
def test_every_caller_brings_up_its_next_request_when_asked_and_says_which_booking_it_means(client, variant):
    template = next(t for t in TEMPLATES if t.kinds[0] == "booking_question" and len(t.requests) == 2
                    and t.requests[1].reveal == "asked" and t.kinds[1] not in ("new_booking", "supervisor"))
    scenario = client.get(f"/generate-random-scenario?suite=expert&task={template.name}&seed=0"
                          f"&customer_variant={variant}", headers=OPERATOR).json
    first, second = scenario["details"]["requests"]
    companion = second["named"]["last_name"]
    for line in (VERIFY, f"You paid ${first['expected']['must_say'][0]} for that booking."):
        assert companion not in say(client, scenario, line), variant
    for asked in ("Is there something else I can do for you today?", "Can I help you with anything else?"):
        reply = say(client, scenario, asked)
        if companion in reply:
            break
    assert companion in reply, (variant, reply)
    for which in ("Sorry, which booking do you mean?", "Which of your bookings is this about?"):
        assert companion in say(client, scenario, which), (variant, which)


@pytest.mark.parametrize("variant", range(6))
def test_every_caller_weighs_a_quote_against_its_limit_before_a_conditional_change(client, variant):
    for seed in range(8):
        scenario = client.get(f"/generate-random-scenario?suite=expert&task=EXPERT_MOVE_OR_CANCEL_QUESTION&seed={seed}"
                              f"&customer_variant={variant}", headers=OPERATOR).json
        request = scenario["details"]["requests"][0]
        say(client, scenario, VERIFY)
        reply = say(client, scenario, f"Moving it would cost ${request['quote-first']} in all. Do you want me to go ahead?")
        assert ("cancel the booking instead" in reply) == bool(request.get("cancels")), (variant, seed, reply)
        assert ("cancel" not in reply) == (not request.get("cancels"))
