"""TASK_POLICY_CHANGE: the caller wants their flight moved to a later day; the policy decides
whether it may be changed and what it costs (a fee and the fare difference, or the difference only)."""
from __future__ import annotations

from crm_app.services.policy import change_terms

from ... import call_steps, steps
from ...sampling import Draw, flight_details
from ...state import flights_state
from ..base import Sample, Task, booking_as_expected, changed_booking, legs
from .caller import (BRIEFING, CLOSE, DONE, JUST_BOOKED, VERIFY, Branch, branch_for, caller_booking,
                     customer_facts, expected, forbidden_if_refused, later_trip, trip_total_cents)

BRANCHES = (Branch("allowed, fee", "Standard"), Branch("allowed, fare difference only", "Flex"),
            Branch("refused", "Basic"), Branch("allowed, just booked", "Basic", JUST_BOOKED),
            Branch("refused, departing soon", "Standard", CLOSE))
CONVERSATIONS = ((("CUS", "Hi, I'd like to move my flight to a later day."),),
                 (("CUS", "Hello, I need to change the date of my flight, please."),))
ASK_NEW_FLIGHT = steps.say("On what date would you like to fly instead, and at what time?",
                           asks=("travel_date", "departure_time"))


def sample(draw: Draw, branches: tuple[Branch, ...] = BRANCHES) -> Sample:
    branch = branch_for(draw, branches)
    booking = caller_booking(draw, branch)
    new = later_trip(draw, booking.trip, costlier=True)
    difference = trip_total_cents(new, booking.fare) - trip_total_cents(booking.trip, booking.fare)
    terms = change_terms(booking.fare, booking.booked_at, booking.trip.outward.departs_at, draw.calendar.now,
                         difference)
    flight = flight_details(new)
    facts = customer_facts(booking, travel_date=flight["departure"], departure_time=flight["outward-departure-time"])
    details = {"confirmation-code": booking.code, "branch": branch.name, "customer": facts, "flight": flight,
               "terms": terms.answer(), "expected": expected(terms, branch),
               "forbidden": forbidden_if_refused(terms, "change_flights", booking.code)}
    return Sample(details, (booking,))


def gold(details: dict) -> list[dict]:
    asked = [ASK_NEW_FLIGHT] if details["expected"]["outcome"] == DONE else []
    return [VERIFY, *asked, *steps.find_booking(details["confirmation-code"]), *change_and_tell(details)]


def change_and_tell(details: dict, on_modify_screen: bool = False) -> list[dict]:
    """From the open booking (or its Modify booking screen): move it to the new flight, telling the
    cost first; or tell why not."""
    code, terms, told = details["confirmation-code"], details["terms"], details["expected"]["must_say"]
    if details["expected"]["outcome"] != DONE:
        return [steps.say(f"I'm sorry, this booking can't be changed. Our policy: {terms['rule']}.", tells=told)]
    flight = details["flight"]
    opening = [] if on_modify_screen else [steps.click("modify-booking")]
    return [*opening, steps.click("change-flights"),
            steps.fill("change-depart", flight["departure"]), steps.click("change-search"),
            *steps.flight_choice(flight, prefix="change-"),
            steps.say(f"The change costs ${terms['amount']} ({terms['rule']}). Shall I go ahead?", tells=told,
                      asks=("consent",)),
            steps.click("save-flights"),
            steps.say(f"Done: booking {code} now flies on flight {flight['outward-flight-number']}.",
                      tells=(flight["outward-flight-number"],))]


def gold_calls(details: dict) -> list[dict]:
    return [call_steps.lookup(details["confirmation-code"]), *change_calls(details)]


def change_calls(details: dict) -> list[dict]:
    if details["expected"]["outcome"] != DONE:
        return []
    return [call_steps.search(details["flight"]), call_steps.change(details["confirmation-code"], details["flight"])]


def move_when_allowed(booking: dict, details: dict) -> None:
    if details["expected"]["outcome"] == DONE:
        booking["flights"] = flights_state(legs(details["flight"]))


TASK = Task(
    name="TASK_POLICY_CHANGE",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=changed_booking(move_when_allowed),
    goal=booking_as_expected,
    instructions=(BRIEFING,),
    conversations=CONVERSATIONS,
)
