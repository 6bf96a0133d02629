"""The evaluator as a pure function: events and states in, metrics out; no server, no browser."""
from __future__ import annotations

import copy

from scenarios.evaluator import evaluate, groups
from scenarios.state import booking_state
from scenarios.steps import describe
from scenarios.tasks import TASKS, task_named

CODE = "GWHVKK"
FLIGHT = {"from": "JFK", "to": "FLL", "departure": "2026-07-07", "return": "2026-09-13",
          "outward-departure-time": "7:01pm", "outward-arrival-time": "10:13pm",
          "return-departure-time": "6:00am", "return-arrival-time": "8:43am",
          "outward-flight-number": "CR1234", "return-flight-number": "CR4321"}
ONE_WAY = {key: value for key, value in FLIGHT.items() if not key.startswith("return")}
PASSENGER = {"title": "Mr", "firstname": "Bill", "lastname": "Correa", "gender": "Male",
             "dob": "2003-04-20", "email": "bill.correa@example.com"}
CARD = {"card-number": "4111111111111111", "expiry": "04/29", "security_code": "153", "name-on-card": "Bill Correa"}


def booking(status="Confirmed", first_name="Bill", flights=(("outward", "CR1000", "2026-07-01"),)) -> dict:
    person = {"title": "Mr", "first_name": first_name, "last_name": "Correa", "email": "bill.correa@example.com",
              "gender": "Male", "date_of_birth": "2003-04-20"}
    return booking_state(status, "oneway", flights, person,
                         {"last4": "1111", "expiry": "04/29", "name_on_card": "Bill Correa",
                          "number": "4111111111111111"})


def fill(target, value):
    return {"action": "fill", "target": target, "value": value}


def click(target, fields=None):
    return {"action": "click", "target": target, "fields": fields}


def gold_events(gold):
    """Events as the page posts them for the gold steps, with each click's form snapshot."""
    events, form = [], {}
    for step in gold:
        if step["action"] == "fill":
            form[step["target"]] = step["value"]
            events.append(fill(step["target"], step["value"]))
        else:
            events.append(click(step["target"], dict(form)))
            form = {}
    return events


def lookup(code, status=200):
    """A booking lookup as the server records it."""
    return {"operation": "get_booking", "params": {"code": code}, "status": status}


def search(flight, status=200, **changes):
    """A flight search as the server records it, for the trip in `flight` (one way without `return`)."""
    params = {"from": flight["from"], "to": flight["to"], "date": flight["departure"]}
    if "return" in flight:
        params["return"] = flight["return"]
    return {"operation": "search_flights", "params": {**params, **changes}, "status": status}


def cancel_scores(events, final_status="Cancelled"):
    initial = {CODE: booking()}
    final = {CODE: booking(final_status)}
    return evaluate(task_named("TASK_CANCEL_FLIGHT"), {"confirmation-code": CODE}, events, initial, final)


def test_gold_lengths_and_order():
    gold = TASKS["TASK_FIND_FLIGHT"].gold({"flight": FLIGHT})
    assert [describe(s) for s in gold] == ['fill search-from "JFK"', 'fill search-to "FLL"',
                                          'fill search-depart "2026-07-07"', 'fill search-return "2026-09-13"',
                                          "click search-submit"]
    one_way = TASKS["TASK_FIND_FLIGHT"].gold({"flight": ONE_WAY})
    assert [s["target"] for s in one_way] == ["trip-type", "search-from", "search-to", "search-depart", "search-submit"]
    assert one_way[0]["value"] == "oneway" and one_way[0]["label"] == "One way"
    book = {"flight": FLIGHT, "passenger": PASSENGER, "payment-details": CARD}
    assert len(TASKS["TASK_BOOK_FLIGHT"].gold(book)) == 20
    assert len(TASKS["TASK_BOOK_FLIGHT"].gold({**book, "flight": ONE_WAY})) == 19
    assert len(TASKS["TASK_FIND_BOOKING"].gold({"confirmation-code": CODE})) == 3
    assert [s["target"] for s in TASKS["TASK_CANCEL_FLIGHT"].gold({"confirmation-code": CODE})] == [
        "nav-find-booking", "find-code", "find-submit", "cancel-booking", "cancel-code", "cancel-confirm"]
    changes = {"lastname": "Li", "dob": "1990-01-02"}
    update = TASKS["TASK_UPDATE_PASSENGER_DETAILS"].gold({"confirmation-code": CODE, "passenger": changes})
    assert [s["target"] for s in update[3:]] == ["modify-booking", "modify-passenger-lastname", "modify-passenger-dob",
                                                 "modify-passenger-save"]
    modify = TASKS["TASK_MODIFY_FLIGHT"].gold({"confirmation-code": CODE, "flight": FLIGHT})
    assert [s["target"] for s in modify[3:]] == ["modify-booking", "change-flights", "change-depart", "change-return",
                                                 "change-search", "change-outward-flight", "change-return-flight",
                                                 "save-flights"]
    assert len(TASKS["TASK_MODIFY_FLIGHT"].gold({"confirmation-code": CODE, "flight": ONE_WAY})) == 9


def test_gold_steps_carry_labels_and_normalized_values():
    gold = TASKS["TASK_BOOK_FLIGHT"].gold({"flight": FLIGHT, "passenger": PASSENGER, "payment-details": CARD})
    by_target = {s["target"]: s for s in gold}
    assert by_target["passenger-title"] == {"action": "fill", "target": "passenger-title", "value": "mr",
                                            "label": "Title"}
    assert by_target["outward-flight"]["value"] == "CR1234"
    assert by_target["book-flight"] == {"action": "click", "target": "book-flight", "label": "Book flight"}
    assert [len(fills) for fills, _ in groups(gold)] == [4, 2, 6, 4]


def test_full_gold_sequence_succeeds():
    events = gold_events(TASKS["TASK_CANCEL_FLIGHT"].gold({"confirmation-code": CODE}))
    result = cancel_scores(events)
    assert (result["success"], result["task_progress"], result["num_actions"]) == (1, 1.0, 6)
    assert result["matched"] == [True] * 6
    assert [m["%complete"] for m in result["metrics"]] == [0.1667, 0.1667, 0.5, 0.6667, 0.6667, 1.0]
    assert [m["task_completion"] for m in result["metrics"]] == [0, 0, 0, 0, 0, 1]
    assert result["metrics"][1] == {"step": 2, "action": f'fill find-code "{CODE}"', "task_completion": 0,
                                    "%complete": 0.1667}


def test_half_the_gold_sequence_gives_partial_progress_and_no_success():
    events = gold_events(TASKS["TASK_CANCEL_FLIGHT"].gold({"confirmation-code": CODE}))[:3]
    result = cancel_scores(events, final_status="Confirmed")
    assert (result["success"], result["task_progress"], result["num_actions"]) == (0, 0.5, 3)
    assert result["matched"] == [True, True, True, False, False, False]
    assert result["state_check"] == {"passed": False, "reason": f"booking {CODE} is still active"}


def test_no_events_give_one_zero_entry():
    result = cancel_scores([], final_status="Confirmed")
    assert result["metrics"] == [{"step": 0, "action": "", "task_completion": 0, "%complete": 0.0}]
    assert (result["success"], result["task_progress"], result["num_actions"]) == (0, 0.0, 0)


def test_typing_clearing_and_retyping_still_matches():
    events = [click("nav-find-booking"), fill("find-code", "ZZZZZ9"), fill("find-code", ""),
              fill("find-code", CODE.lower()), click("find-submit")]
    initial = {CODE: booking()}
    result = evaluate(task_named("TASK_FIND_BOOKING"), {"confirmation-code": CODE}, events, initial, initial,
                      [lookup(CODE)])
    assert (result["success"], result["task_progress"]) == (1, 1.0)


def test_consecutive_fills_of_one_field_are_one_action():
    """Type-ahead in the Title select commits "miss", "mr", "mrs": one choice, so one action, and
    one metrics entry at its last fill. A fill of another field between them splits the run."""
    details = {"confirmation-code": CODE, "passenger": {"title": "Mrs"}}
    gold = TASKS["TASK_UPDATE_PASSENGER_DETAILS"].gold(details)
    assert len(gold) == 6
    typed_ahead = [fill("modify-passenger-title", value) for value in ("miss", "mr", "mrs")]
    events = gold_events(gold)
    at = next(i for i, e in enumerate(events) if e["target"] == "modify-passenger-title")
    events[at:at + 1] = typed_ahead
    initial = {CODE: booking()}
    final = copy.deepcopy(initial)
    final[CODE]["passenger"]["title"] = "Mrs"
    result = evaluate(task_named("TASK_UPDATE_PASSENGER_DETAILS"), details, events, initial, final)
    assert (len(events), result["num_actions"], result["task_progress"], result["success"]) == (8, 6, 1.0, 1)
    assert [m["step"] for m in result["metrics"]] == [1, 2, 3, 4, 5, 6]
    assert result["metrics"][4] == {"step": 5, "action": 'fill modify-passenger-title "mrs"',
                                    "task_completion": 0, "%complete": 0.6667}
    split = events[:at + 1] + [fill("modify-passenger-firstname", "Bill")] + events[at + 1:]  # miss, Bill, mr mrs
    assert evaluate(task_named("TASK_UPDATE_PASSENGER_DETAILS"), details, split, initial, final)["num_actions"] == 8


def test_click_snapshot_wins_over_earlier_fills():
    """A field changed without a change event (or prefilled) counts by its value at the click."""
    events = [click("nav-find-booking"), fill("find-code", "ZZZZZ9"), click("find-submit", {"find-code": CODE})]
    initial = {CODE: booking()}
    result = evaluate(task_named("TASK_FIND_BOOKING"), {"confirmation-code": CODE}, events, initial, initial)
    assert result["matched"] == [True, True, True]


def test_prefilled_value_needs_no_event():
    details = {"confirmation-code": CODE, "flight": ONE_WAY}
    gold = TASKS["TASK_MODIFY_FLIGHT"].gold(details)
    events = [e for e in gold_events(gold) if e["action"] == "click"]  # every field value only in snapshots
    initial = {CODE: booking()}
    final = {CODE: booking(flights=(("outward", "CR1234", "2026-07-07"),))}
    result = evaluate(task_named("TASK_MODIFY_FLIGHT"), details, events, initial, final)
    assert (result["success"], result["task_progress"], result["num_actions"]) == (1, 1.0, 6)
    assert result["matched"] == [True] * 9


def test_wrong_field_value_is_not_matched():
    events = [click("nav-find-booking"), fill("find-code", "ABCDEF"), click("find-submit")]
    initial = {CODE: booking()}
    result = evaluate(task_named("TASK_FIND_BOOKING"), {"confirmation-code": CODE}, events, initial, initial,
                      [lookup("ABCDEF", 404)])
    assert result["matched"] == [True, False, True]
    assert (result["success"], result["task_progress"]) == (0, 0.6667)
    assert result["state_check"] == {"passed": False,
                                     "reason": f"the last booking lookup was for 'ABCDEF', not {CODE}"}


def test_the_click_meeting_most_fields_is_used():
    gold = TASKS["TASK_FIND_FLIGHT"].gold({"flight": FLIGHT})
    right = {s["target"]: s["value"] for s in gold if s["action"] == "fill"}
    events = [click("search-submit", {**right, "search-depart": "2026-07-08"}), click("search-submit", right)]
    searches = [search(FLIGHT, date="2026-07-08"), search(FLIGHT)]
    result = evaluate(task_named("TASK_FIND_FLIGHT"), {"flight": FLIGHT}, events, {}, {}, searches)
    assert result["matched"] == [True] * 5
    assert [m["%complete"] for m in result["metrics"]] == [0.8, 1.0]
    assert result["success"] == 1
    later_wrong = evaluate(task_named("TASK_FIND_FLIGHT"), {"flight": FLIGHT}, events[::-1], {}, {}, searches[::-1])
    assert later_wrong["task_progress"] == 1.0
    assert later_wrong["success"] == 0  # the last search is the one that counts for the goal
    assert later_wrong["state_check"]["reason"] == \
        "the last flight search was not the one asked for: date was '2026-07-08', expected '2026-07-07'"


def test_groups_must_be_met_in_order():
    gold = TASKS["TASK_CANCEL_FLIGHT"].gold({"confirmation-code": CODE})
    events = gold_events(gold)
    shuffled = events[3:] + events[:3]  # the cancel clicks happen before the booking is found
    result = cancel_scores(shuffled)
    assert result["task_progress"] == 0.5
    assert sum(result["matched"]) == 3  # either half, never both: groups are met in order
    # success judges the final state alone (here: cancelled, nothing else changed)
    assert result["success"] == 1
    assert result["metrics"][-1]["task_completion"] == 1


def test_collateral_change_fails_although_every_step_matched():
    events = gold_events(TASKS["TASK_CANCEL_FLIGHT"].gold({"confirmation-code": CODE}))
    initial = {CODE: booking()}
    final = {CODE: booking("Cancelled", first_name="William")}
    result = evaluate(task_named("TASK_CANCEL_FLIGHT"), {"confirmation-code": CODE}, events, initial, final)
    assert (result["success"], result["task_progress"]) == (0, 1.0)
    assert result["state_check"]["reason"] == f"booking {CODE}: passenger first_name is 'William', expected 'Bill'"


def test_new_booking_codes_are_ignored_but_extra_bookings_are_not():
    details = {"flight": ONE_WAY, "passenger": PASSENGER, "payment-details": CARD}
    task = task_named("TASK_BOOK_FLIGHT")
    events = gold_events(task.gold(details))
    made = task.expect({}, details)["(new booking)"]
    assert evaluate(task, details, events, {}, {"K7Q2ZP": made})["success"] == 1
    two = evaluate(task, details, events, {}, {"K7Q2ZP": made, "M3N4P5": copy.deepcopy(made)})
    assert (two["success"], two["task_progress"]) == (0, 1.0)
    assert two["state_check"]["reason"] == "2 new bookings were made, expected 1"
    other_card = copy.deepcopy(made)
    other_card["card"]["number"] = None
    assert evaluate(task, details, events, {}, {"K7Q2ZP": other_card})["state_check"]["reason"] == \
        "the new booking: card number is none, expected '4111111111111111'"


def test_same_events_same_score():
    events = gold_events(TASKS["TASK_CANCEL_FLIGHT"].gold({"confirmation-code": CODE}))[:4]
    assert cancel_scores(copy.deepcopy(events)) == cancel_scores(copy.deepcopy(events))


# ---- the scoring rules of docs/scenarios.md ----

def test_a_field_left_out_of_the_click_snapshot_was_not_submitted():
    """Rule 1: Return date typed, then One way chosen (the page disables the field): not searched."""
    events = [fill("search-from", "JFK"), fill("search-to", "FLL"), fill("search-depart", "2026-07-07"),
              fill("search-return", "2026-09-13"), fill("trip-type", "oneway"),
              click("search-submit", {"trip-type": "oneway", "search-from": "JFK", "search-to": "FLL",
                                      "search-depart": "2026-07-07"})]
    result = evaluate(task_named("TASK_FIND_FLIGHT"), {"flight": FLIGHT}, events, {}, {})
    assert result["matched"] == [True, True, True, False, True]
    assert result["task_progress"] == 0.8
    without_snapshot = [*events[:-1], click("search-submit")]  # only then do earlier fills count
    assert evaluate(task_named("TASK_FIND_FLIGHT"), {"flight": FLIGHT}, without_snapshot, {}, {})["task_progress"] == 1.0


def test_success_is_the_state_verdict_with_or_without_events():
    """Rule 2: the right final state with no page events succeeds; a stray click changes nothing."""
    quiet = cancel_scores([])
    assert (quiet["success"], quiet["task_progress"], quiet["num_actions"]) == (1, 0.0, 0)
    assert quiet["state_check"]["passed"] is True
    assert quiet["metrics"] == [{"step": 0, "action": "", "task_completion": 1, "%complete": 0.0}]
    stray = cancel_scores([click("nav-help", {})])
    assert (stray["success"], stray["task_progress"], stray["num_actions"]) == (1, 0.0, 1)
    assert stray["metrics"][-1]["task_completion"] == 1


def test_find_tasks_are_judged_on_the_last_request_the_server_answered():
    """Rule 3: events alone never succeed; the last lookup or search decides, a refused one fails."""
    find, details, initial = task_named("TASK_FIND_BOOKING"), {"confirmation-code": CODE}, {CODE: booking()}
    events = gold_events(find.gold(details))
    alone = evaluate(find, details, events, initial, initial)
    assert (alone["success"], alone["task_progress"]) == (0, 1.0)
    assert alone["state_check"]["reason"] == "no booking lookup was made"
    assert evaluate(find, details, events, initial, initial, [lookup(CODE)])["success"] == 1
    assert evaluate(find, details, [], initial, initial, [lookup("ZZZZZ9", 404), lookup(CODE)])["success"] == 1
    later = evaluate(find, details, events, initial, initial, [lookup(CODE), lookup("ZZZZZ9", 404)])
    assert later["success"] == 0 and later["state_check"]["reason"] == \
        f"the last booking lookup was for 'ZZZZZ9', not {CODE}"

    search_task = task_named("TASK_FIND_FLIGHT")
    assert evaluate(search_task, {"flight": FLIGHT}, [], {}, {}, [search(FLIGHT)])["success"] == 1
    refused = evaluate(search_task, {"flight": FLIGHT}, [], {}, {}, [search(FLIGHT), search(FLIGHT, 400, date="x")])
    assert refused["state_check"]["reason"] == "the last flight search was refused (status 400)"
    one_way = evaluate(search_task, {"flight": ONE_WAY}, [], {}, {}, [search(FLIGHT)])
    assert one_way["state_check"]["reason"] == \
        "the last flight search was not the one asked for: return was '2026-09-13', expected none"
    other_calls = [search(FLIGHT), {"operation": "quote", "params": {"outward": 1, "return": 2}, "status": 200}]
    assert evaluate(search_task, {"flight": FLIGHT}, [], {}, {}, other_calls)["success"] == 1


class CountingEvents(list):
    """A list of events that counts how many times an event is read."""

    reads = 0

    def __getitem__(self, index):
        CountingEvents.reads += len(range(*index.indices(len(self)))) if isinstance(index, slice) else 1
        return super().__getitem__(index)

    def __iter__(self):
        for event in super().__iter__():
            CountingEvents.reads += 1
            yield event


def test_scoring_reads_each_event_a_bounded_number_of_times():
    """Rule 4: the work grows linearly with the events (it grew with their square before)."""
    details = {"flight": FLIGHT, "passenger": PASSENGER, "payment-details": CARD}
    task = task_named("TASK_BOOK_FLIGHT")
    with_snapshots = gold_events(task.gold(details))
    episode = with_snapshots + [{**e, "fields": None} for e in with_snapshots]  # clicks with and without a snapshot
    for size in (1000, 4000):
        events = CountingEvents((episode * (size // len(episode) + 1))[:size])
        CountingEvents.reads = 0
        result = evaluate(task, details, events, {}, {})
        assert result["num_actions"] == size and result["task_progress"] == 1.0
        assert CountingEvents.reads <= 10 * size, (size, CountingEvents.reads)


def test_card_data_is_compared_in_its_protected_form():
    """Rule 6: events hold keyed hashes of card data; gold values are hashed the same way."""
    from crm_app.services.cards import CardHasher
    from scenarios.card_data import protector
    from scenarios.events import clean_event

    protect = protector(CardHasher("key one"))
    details = {"flight": ONE_WAY, "passenger": PASSENGER, "payment-details": CARD}
    task = task_named("TASK_BOOK_FLIGHT")
    posted = [{"page": "p", "seq": n + 1, **e} for n, e in enumerate(gold_events(task.gold(details)))]
    stored = [clean_event(e, protect) for e in posted]
    card_fill = next(e for e in stored if e["target"] == "payment-card-number")
    assert card_fill["value"].startswith("****1111:") and "4111111111111111" not in str(stored)
    assert "153" not in [e["value"] for e in stored] and stored[-1]["fields"]["payment-security-code"].startswith("hmac:")
    assert evaluate(task, details, stored, {}, {}, protect=protect)["matched"] == [True] * 19
    other_key = evaluate(task, details, stored, {}, {}, protect=protector(CardHasher("key two")))
    assert other_key["matched"][-5:-1] == [False, True, False, True]  # card number and code differ
