"""The expert suite's requests answered from the knowledge base (issue 50): a certificate by tier
and delay, whether the scenario's waiver bulletin covers a flight, a fee whose older article says
otherwise. The gold path reads the articles in force and scores 1; a scripted careless rep who reads
the first search result, superseded or not, tells its amount and fails with the reason; a
scenario's bulletins are its own rows, found only by search and written again by a reset."""
import datetime as dt
import re

import pytest

from scenarios.tasks.expert import TEMPLATES
from tests.conftest import OPERATOR
from tests.scenarios.expert_calls import expert_scenario, play
from tests.scenarios.hard_calls import evaluate, say

KNOWLEDGE = [t.name for t in TEMPLATES if {"certificate", "waiver", "current_fee"} & set(t.kinds)]


def test_each_knowledge_kind_is_in_ten_templates_split_by_the_test_pairs():
    for kind in ("certificate", "waiver", "current_fee"):
        assert sum(kind in t.kinds for t in TEMPLATES) >= 10, kind
    splits = {t.name: t.split for t in TEMPLATES}
    assert (splits["EXPERT_CERTIFICATE_CANCEL"], splits["EXPERT_WAIVER_QUESTION"], splits["EXPERT_FEE_STATUS"],
            splits["EXPERT_CERTIFICATE_CHANGE"]) == ("test", "test", "test", "train")


@pytest.mark.parametrize("template", ["EXPERT_CERTIFICATE_WAIVER_FEE", "EXPERT_CANCEL_CERTIFICATE"])
def test_the_gold_path_reads_the_article_in_force_and_solves_the_call(client, template):
    for seed in range(4):
        scenario = expert_scenario(client, template, seed)
        gold = evaluate(client, scenario)
        assert {call["operation"] for call in gold["gold_calls"]} >= {"search_knowledge_base", "read_article"}
        result = play(client, scenario)
        assert result["success"] == 1, (seed, [r for r in result["requests"] if not r["ok"]])
        assert evaluate(client, expert_scenario(client, template, seed))["success"] == 0  # doing nothing


def test_the_page_and_gold_read_one_certificate_the_gold_tiers_article_in_force(client):
    scenario = expert_scenario(client, "EXPERT_CERTIFICATE_CHANGE", 0)
    request = scenario["details"]["requests"][0]
    assert (request["tier"], request["status"]["delay-minutes"]) == ("Gold", 220)
    assert request["reading"] == {"query": "Gold delay certificate", "opened": ["compensation-gold-2024",
                                                                                "compensation-gold"]}
    assert request["expected"]["must_say"] == ["75.00"]  # 3 h 40 min: 2 hours or more, the Gold tier in force
    body = client.get("/api/kb/articles/compensation-gold").json["article"]["body"]
    assert "$75.00 for a delay of 2 hours or more" in body


def careless(client, scenario: dict) -> dict:
    """A rep who verifies the caller, searches the knowledge base with the request's words, reads the
    first result (superseded or not) and tells the amount it gives for the delay; then asks for more."""
    details = scenario["details"]
    say(client, scenario, "Could you give me your confirmation code and the passenger's date of birth, please?")
    request = details["requests"][0]
    found = client.get("/api/kb/search", query_string={"q": request["reading"]["query"], "scenario": scenario["id"]})
    first = client.get(f"/api/kb/articles/{found.json['results'][0]['id']}?scenario={scenario['id']}").json["article"]
    amounts = re.findall(r"\$(\d+\.\d\d) for (?:a delay of )?(\d) hours or more", first["body"])
    hours = request["status"]["delay-minutes"] / 60
    told = [amount for amount, at_least in amounts if hours >= int(at_least)][-1]
    say(client, scenario, f"You are owed a travel certificate of ${told}.")
    say(client, scenario, "Is there anything else I can help you with?")
    return evaluate(client, scenario)


def test_a_rep_who_reads_the_first_result_tells_the_superseded_amount_and_fails_with_why(client):
    scenario = expert_scenario(client, "EXPERT_CERTIFICATE_CHANGE", 0)
    result = careless(client, scenario)
    assert result["success"] == 0
    assert result["requests"][0]["why"] == [
        "the agent never told the customer 75.00",
        "the agent told the customer $50.00, what the superseded article compensation-gold-2024 says; "
        "compensation-gold, in force, says $75.00"]


def test_a_waiver_bulletin_is_the_scenarios_own_found_by_search_only_and_written_again_by_a_reset(client):
    scenario = expert_scenario(client, "EXPERT_WAIVER_CHANGE", 1)  # the waiver ended the day before the flight
    request = scenario["details"]["requests"][0]
    bulletin = request["waiver"]["id"]
    query = {"q": request["reading"]["query"]}
    found = client.get("/api/kb/search", query_string={**query, "scenario": scenario["id"]}).json["results"]
    assert found[0]["id"] == bulletin and found[0]["title"].startswith("Weather waiver: ")
    schedule = bulletin.replace("waiver", "schedule")  # the same route's schedule change, which waives nothing
    assert [r["id"] for r in found[1:3]] == ["weather-waiver-general", schedule]  # 2 words each, the shorter title first
    listed = {a["id"] for a in client.get("/api/kb/articles").json["articles"]}
    assert bulletin not in listed and schedule not in listed
    article = client.get(f"/api/kb/articles/{bulletin}?scenario={scenario['id']}").json["article"]
    assert "Flights departing on other days are not covered." in article["body"]
    assert request["expected"]["must_say"] == ["not covered"]
    # not in the sandbox, nor in another scenario
    assert bulletin not in {r["id"] for r in client.get("/api/kb/search", query_string=query).json["results"]}
    assert client.get(f"/api/kb/articles/{bulletin}").status_code == 404
    other = expert_scenario(client, "EXPERT_CHANGE_CANCEL", 0)
    assert client.get(f"/api/kb/articles/{bulletin}?scenario={other['id']}").status_code == 404
    # a rep who says it is covered fails with why; after a reset the bulletin is there again, once
    say(client, scenario, "Could you give me your confirmation code and the passenger's date of birth, please?")
    say(client, scenario, "Yes, your flight is covered by the weather waiver.")
    why = evaluate(client, scenario)["requests"][0]["why"]
    assert why[-1].startswith(f"the agent told the customer the flight is covered; bulletin {bulletin} waives flights "
                              f"departing from {request['waiver']['from']} to {request['waiver']['to']}")
    assert client.get(f"/reset-scenario?scenario={scenario['id']}", headers=OPERATOR).status_code == 200
    again = client.get("/api/kb/search", query_string={**query, "scenario": scenario["id"]}).json["results"]
    assert [r["id"] for r in again].count(bulletin) == 1


RULES = [t.name for t in TEMPLATES if "temporary_rule" in t.kinds]


def test_the_temporary_rule_templates_and_their_split():
    splits = {t.name: t.split for t in TEMPLATES if t.name in RULES}
    assert len(splits) == 10 and [name for name, split in splits.items() if split == "test"] == [
        "EXPERT_RULE_STATUS", "EXPERT_STATUS_RULE"]


@pytest.mark.parametrize("template", RULES)
def test_the_gold_path_tells_the_fee_the_temporary_rule_makes_on_its_days_and_the_usual_one_on_others(client, template):
    told = set()
    for seed in range(4):
        scenario = expert_scenario(client, template, seed)
        request = next(r for r in scenario["details"]["requests"] if r["kind"] == "temporary_rule")
        told.add(request["expected"]["must_say"][0])
        result = play(client, scenario)
        assert (result["success"], result["violations"]) == (1, []), (seed, result["requests"])
    assert told == {"20.00", "40.00"}  # the rule's fee on its days, the article in force's on others


def ignores_the_rule(client, scenario: dict, index: int, amount: str) -> dict:
    """A rep who verifies the caller, brings the request up, and tells `amount` for the first checked bag."""
    say(client, scenario, "Could you give me your confirmation code and the passenger's date of birth, please?")
    if index:
        say(client, scenario, "Is there anything else I can help you with?")
    say(client, scenario, f"The first checked bag costs ${amount} each way.")
    return evaluate(client, scenario)


def test_a_temporary_rule_is_a_bulletin_found_first_by_search_and_a_rep_who_ignores_it_fails(client):
    scenario = expert_scenario(client, "EXPERT_RULE_CHANGE", 0)
    request = scenario["details"]["requests"][0]
    rule = request["rule"]["id"]
    assert (request["branch"], request["expected"]["must_say"]) == ("in force", ["20.00"])
    found = client.get("/api/kb/search", query_string={"q": request["reading"]["query"], "scenario": scenario["id"]})
    assert found.json["results"][0]["id"] == rule and found.json["results"][0]["title"].startswith("Temporary rule: ")
    assert rule not in {a["id"] for a in client.get("/api/kb/articles").json["articles"]}
    body = client.get(f"/api/kb/articles/{rule}?scenario={scenario['id']}").json["article"]["body"]
    assert "costs $20.00 each way (instead of $40.00, baggage-checked-first)" in body
    why = ignores_the_rule(client, scenario, 0, "40.00")["requests"][0]["why"]
    assert why == ["the agent never told the customer 20.00",
                   f"the agent told the customer $40.00, the usual fee (baggage-checked-first); the temporary rule {rule} "
                   f"makes it $20.00 on flights from {rule.rsplit('-', 1)[1].upper()} departing from "
                   f"{request['rule']['from']} to {request['rule']['to']}, and the flight departs on "
                   f"{request['flight']['date']}"]


def test_a_rep_who_applies_a_temporary_rule_on_a_day_it_does_not_cover_fails(client):
    scenario = expert_scenario(client, "EXPERT_RULE_CHANGE", 1)
    request = scenario["details"]["requests"][0]
    assert (request["branch"], request["expected"]["must_say"]) == ("ended the day before", ["40.00"])
    result = ignores_the_rule(client, scenario, 0, "20.00")
    assert result["success"] == 0 and result["requests"][0]["why"][-1].startswith(
        f"the agent told the customer $20.00, the temporary rule's fee ({request['rule']['id']}); it covers flights")


def later_flight(client, scenario: dict, booking: dict) -> dict:
    """A flight of the booking's route a week after its own."""
    own = booking["flights"][0]
    day = (dt.date.fromisoformat(own["date"]) + dt.timedelta(days=7)).isoformat()
    found = client.get(f"/api/flights/search?scenario={scenario['id']}&from={own['from']}&to={own['to']}&date={day}")
    return found.json["flights"][0]


@pytest.mark.parametrize("seed,covered", [(0, True), (3, True), (1, False)])
def test_the_booking_screen_the_quote_and_the_write_apply_the_scenarios_weather_waiver(client, seed, covered):
    scenario = expert_scenario(client, "EXPERT_WAIVER_CHANGE", seed)
    request = scenario["details"]["requests"][0]
    assert (request["expected"]["must_say"] == ["is covered"]) == covered
    path = f"/api/bookings/{request['booking']}"
    shown = client.get(f"{path}?scenario={scenario['id']}").json["booking"]
    new = later_flight(client, scenario, shown)
    quote = client.get(f"{path}/flights/quote?scenario={scenario['id']}&outward={new['id']}").json
    free = {"outcome": "allowed", "amount": "0.00",
            "rule": f"the weather waiver {request['waiver']['id']} covers the flight: no change fee and no fare difference"}
    if not covered:
        assert "waiver" not in shown and shown["change"] != free and quote["policy"] != free
        return
    assert (shown["change"], shown["waiver"], quote["policy"]) == (free, {"bulletin": request["waiver"]["id"]}, free)
    assert quote["difference"] in ("0.00", "+0.00") and quote["current_total"] == shown["paid"]
    moved = client.put(f"{path}/flights?scenario={scenario['id']}", json={"outward_flight_id": new["id"]})
    assert moved.status_code == 200 and moved.json["booking"]["paid"] == shown["paid"]
    assert moved.json["booking"]["flights"][0]["number"] == new["number"]


def test_a_waiver_never_covers_another_requests_booking_and_a_hard_booking_has_no_waiver(client):
    """Each request's terms are drawn without the others' bulletins: no waiver may make another's change free."""
    for template in [t.name for t in TEMPLATES if "waiver" in t.kinds][::2]:
        scenario = expert_scenario(client, template, 0)
        others = [r for r in scenario["details"]["requests"] if r["kind"] != "waiver" and r.get("booking")]
        for other in others:
            shown = client.get(f"/api/bookings/{other['booking']}?scenario={scenario['id']}").json["booking"]
            assert "waiver" not in shown, (template, other["kind"])
    hard = client.get("/generate-random-scenario?suite=hard&task=TASK_POLICY_CHANGE&seed=0", headers=OPERATOR).json
    booking = client.get(f"/api/bookings/{hard['details']['confirmation-code']}?scenario={hard['id']}").json["booking"]
    assert "waiver" not in booking and booking["change"]["outcome"] in ("allowed", "refused")
