"""Progress of API work (modality api) as a pure function: recorded calls in, exact numbers out:
the gold calls of each task, partial sequences, calls out of order, wrong parameters, refused
calls, card data compared in its stored form, and how the modality is chosen."""
from __future__ import annotations

import pytest

from scenarios.call_scoring import align_calls
from scenarios.evaluator import evaluate, modality_of
from scenarios.tasks import task_named
from tests.scenarios.test_evaluator import CARD, CODE, FLIGHT, ONE_WAY, PASSENGER, booking, click, lookup, search

OUT = {"number": "CR1234", "date": "2026-07-07"}
BACK = {"number": "CR4321", "date": "2026-09-13"}
API_PASSENGER = {"title": "mr", "first_name": "Bill", "last_name": "Correa", "email": "bill.correa@example.com",
                 "gender": "male", "date_of_birth": "2003-04-20"}
API_CARD = {"card_number": "4111111111111111", "expiry": "04/29", "security_code": "153", "name_on_card": "Bill Correa"}


def cancel(code=CODE, confirmation=CODE, status=200):
    return {"operation": "cancel_booking", "params": {"code": code, "confirmation_code": confirmation}, "status": status}


def create(outward=OUT, back=BACK, passenger=API_PASSENGER, payment=API_CARD, status=201):
    """A booking as the server records it: ids (which differ between databases) and the flights they name."""
    return {"operation": "create_booking", "status": status, "params": {
        "outward_flight_id": 17, "return_flight_id": 40, "outward_flight": outward, "return_flight": back,
        "passenger": passenger, "payment": payment}}


def change(outward=OUT, back=BACK, status=200):
    return {"operation": "change_flights", "status": status, "params": {
        "code": CODE, "outward_flight_id": 3, "return_flight_id": 9, "outward_flight": outward, "return_flight": back}}


def update(status=200, **fields):
    return {"operation": "update_passenger", "params": {"code": CODE, "passenger": fields}, "status": status}


def validate():
    return {"operation": "validate_passenger", "params": {"passenger": API_PASSENGER}, "status": 200}


def score(task: str, details: dict, calls: list[dict], final_status="Confirmed", **options) -> dict:
    initial = {CODE: booking()}
    final = {CODE: booking(status=final_status)} if details.get("confirmation-code") else {}
    return evaluate(task_named(task), details, [], initial if final else {}, final, calls, **options)


CANCEL = {"confirmation-code": CODE}
BOOK = {"flight": FLIGHT, "passenger": PASSENGER, "payment-details": CARD}
MOVE = {"confirmation-code": CODE, "flight": FLIGHT}


def test_the_gold_calls_of_each_task():
    assert task_named("TASK_FIND_BOOKING").gold_calls(CANCEL) == [{"operation": "get_booking", "params": {"code": CODE}}]
    assert task_named("TASK_CANCEL_FLIGHT").gold_calls({"confirmation-code": CODE.lower()}) == [
        {"operation": "get_booking", "params": {"code": CODE}},
        {"operation": "cancel_booking", "params": {"code": CODE, "confirmation_code": CODE}}]
    assert task_named("TASK_FIND_FLIGHT").gold_calls({"flight": ONE_WAY}) == [{"operation": "search_flights", "params": {
        "from": "JFK", "to": "FLL", "date": "2026-07-07", "return": None}}]
    assert task_named("TASK_BOOK_FLIGHT").gold_calls(BOOK)[1] == {"operation": "create_booking", "params": {
        "outward_flight": OUT, "return_flight": BACK, "passenger": API_PASSENGER, "payment": API_CARD}}
    changes = {"lastname": " Hull ", "dob": "05/06/1990"}
    assert task_named("TASK_UPDATE_PASSENGER_DETAILS").gold_calls({"confirmation-code": CODE, "passenger": changes})[1] == {
        "operation": "update_passenger", "params": {"code": CODE, "passenger": {"last_name": "Hull",
                                                                                "date_of_birth": "1990-05-06"}}}
    assert [c["operation"] for c in task_named("TASK_MODIFY_FLIGHT").gold_calls(MOVE)] == [
        "get_booking", "search_flights", "change_flights"]


def test_every_gold_call_in_order_is_full_progress_and_checks_on_the_way_are_not_counted():
    result = score("TASK_BOOK_FLIGHT", BOOK, [search(FLIGHT), validate(), create()], modality="api")
    assert (result["modality"], result["task_progress"], result["num_actions"]) == ("api", 1.0, 3)
    assert result["matched"] == [True, True]
    assert [m["%complete"] for m in result["metrics"]] == [0.5, 0.5, 1.0]
    assert [m["action"] for m in result["metrics"]] == ["search_flights -> 200", "validate_passenger -> 200",
                                                          "create_booking -> 201"]


def test_a_partial_sequence_scores_the_share_met():
    result = score("TASK_MODIFY_FLIGHT", MOVE, [lookup(CODE), search(FLIGHT)], modality="api")
    assert (result["task_progress"], result["matched"]) == (0.6667, [True, True, False])
    assert [m["%complete"] for m in result["metrics"]] == [0.3333, 0.6667]
    assert score("TASK_MODIFY_FLIGHT", MOVE, [change()], modality="api")["task_progress"] == 0.3333


def test_calls_out_of_order_meet_only_an_ordered_part():
    result = score("TASK_CANCEL_FLIGHT", CANCEL, [cancel(), lookup(CODE)], "Cancelled", modality="api")
    # either call alone is one gold call in order; the earliest call names which
    assert (result["success"], result["task_progress"], result["matched"]) == (1, 0.5, [False, True])
    moved = score("TASK_MODIFY_FLIGHT", MOVE, [search(FLIGHT), change(), lookup(CODE)], modality="api")
    assert (moved["task_progress"], moved["matched"]) == (0.6667, [False, True, True])


def test_wrong_parameters_do_not_meet_a_gold_call():
    assert score("TASK_CANCEL_FLIGHT", CANCEL, [lookup(CODE), cancel(confirmation="ZZZZZ9")],
                 modality="api")["task_progress"] == 0.5
    assert score("TASK_CANCEL_FLIGHT", CANCEL, [lookup("ZZZZZ9"), cancel()], "Cancelled",
                 modality="api")["task_progress"] == 0.5
    wrong_day = {**search(FLIGHT), "params": {**search(FLIGHT)["params"], "return": "2026-09-14"}}
    assert score("TASK_FIND_FLIGHT", {"flight": FLIGHT}, [wrong_day], modality="api")["task_progress"] == 0.0
    one_way = score("TASK_FIND_FLIGHT", {"flight": ONE_WAY}, [search(FLIGHT), search(ONE_WAY)], modality="api")
    assert (one_way["task_progress"], one_way["metrics"][0]["%complete"]) == (1.0, 0.0)  # a return search is not one way
    for wrong in (create(outward={"number": "CR1234", "date": "2026-07-08"}), create(back=None),
                  create(passenger={**API_PASSENGER, "last_name": "Corea"}),
                  create(payment={**API_CARD, "expiry": "05/29"})):
        assert score("TASK_BOOK_FLIGHT", BOOK, [search(FLIGHT), wrong], modality="api")["task_progress"] == 0.5


def test_a_refused_call_does_not_meet_its_gold_call():
    assert score("TASK_CANCEL_FLIGHT", CANCEL, [lookup(CODE, 404), cancel(status=409)],
                 modality="api")["task_progress"] == 0.0
    retried = score("TASK_CANCEL_FLIGHT", CANCEL, [lookup(CODE), cancel(status=400), cancel()], "Cancelled",
                    modality="api")
    assert (retried["task_progress"], retried["num_actions"]) == (1.0, 3)
    assert [m["%complete"] for m in retried["metrics"]] == [0.5, 0.5, 1.0]


def test_a_passenger_change_is_met_by_a_call_holding_the_changed_fields():
    details = {"confirmation-code": CODE, "passenger": {"lastname": "Hull", "email": "New@Example.org"}}
    task = "TASK_UPDATE_PASSENGER_DETAILS"
    only = score(task, details, [lookup(CODE), update(last_name="Hull", email="new@example.org")], modality="api")
    whole_form = score(task, details, [lookup(CODE), update(**{**API_PASSENGER, "last_name": "Hull",
                                                               "email": "new@example.org"})], modality="api")
    missing = score(task, details, [lookup(CODE), update(last_name="Hull")], modality="api")
    assert (only["task_progress"], whole_form["task_progress"], missing["task_progress"]) == (1.0, 1.0, 0.5)


def test_card_data_is_compared_in_its_stored_form():
    protect = lambda target, value: f"stored:{target}:{value}"  # noqa: E731  (how the server keeps them)
    stored = {**API_CARD, "card_number": "stored:payment-card-number:4111111111111111",
              "security_code": "stored:payment-security-code:153"}
    assert score("TASK_BOOK_FLIGHT", BOOK, [search(FLIGHT), create(payment=stored)], modality="api",
                 protect=protect)["task_progress"] == 1.0
    assert score("TASK_BOOK_FLIGHT", BOOK, [search(FLIGHT), create(payment=API_CARD)], modality="api",
                 protect=protect)["task_progress"] == 0.5


def test_of_two_alignments_the_one_meeting_more_wins_and_the_earliest_calls_are_named():
    gold = task_named("TASK_CANCEL_FLIGHT").gold_calls(CANCEL)
    calls = [cancel(), lookup(CODE), lookup(CODE), cancel(), cancel()]
    done, matched = align_calls(gold, calls)
    assert (done, matched) == ([1, 1, 1, 2, 2], [True, True])  # the first cancel alone is one of two in order


def test_the_modality_is_chosen_from_what_was_recorded_unless_asked():
    event = click("nav-help", {})
    assert (modality_of([], []), modality_of([event], [lookup(CODE)]), modality_of([], [lookup(CODE)])) == (
        "ui", "ui", "api")
    found = score("TASK_FIND_BOOKING", CANCEL, [lookup(CODE)])
    assert (found["modality"], found["task_progress"], found["success"]) == ("api", 1.0, 1)
    as_page = score("TASK_FIND_BOOKING", CANCEL, [lookup(CODE)], modality="ui")
    assert (as_page["modality"], as_page["task_progress"], as_page["num_actions"], as_page["success"]) == ("ui", 0.0, 0, 1)


@pytest.mark.parametrize("query, status", [("modality=api", 200), ("modality=UI", 200), ("modality=html", 400)])
def test_evaluate_takes_the_modality(scenarios, query, status):
    scenario = scenarios.generate("TASK_FIND_BOOKING", 5)
    response = scenarios.client.get(f"/evaluate?scenario={scenario['id']}&{query}")
    assert response.status_code == status
    if status == 400:
        assert response.json == {"error": "modality must be one of ui, api (or left out), not 'html'"}
    else:
        assert response.json["modality"] == query.split("=")[1].lower()
        assert response.json["gold_calls"] == [{"operation": "get_booking"}]  # params only with the operator token


def test_the_openapi_document_describes_the_modality(client):
    document = client.get("/openapi.json").json
    assert document["components"]["parameters"]["Modality"]["schema"]["enum"] == ["ui", "api"]
    evaluation = document["components"]["schemas"]["Evaluation"]
    assert evaluation["properties"]["modality"]["enum"] == ["ui", "api"]
    assert {"modality", "gold_calls"} <= set(evaluation["required"])
