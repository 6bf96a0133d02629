"""TASK_UPGRADE_TO_CHANGE: the caller wants their Basic booking moved to a later flight. A Basic fare
cannot be changed, but it can be raised to Standard (paying the fare difference), and a Standard
fare can be changed ($75 fee plus the fare difference at Standard prices). The agent tells the
total of both, and with the caller's yes upgrades, then changes. A caller who said how much they
can spend and hears a total above it keeps the booking as it is: the agent tells the total and
writes nothing."""
from __future__ import annotations

from dataclasses import dataclass

from crm_app.services.fares import STANDARD
from crm_app.services.policy import change_terms, upgrade_terms
from crm_app.services.pricing import money

from ... import call_steps, steps
from ...sampling import Draw, flight_details
from ...state import flights_state
from ..base import Sample, Task, booking_as_expected, changed_booking, legs
from .caller import (BRIEFING, DONE, REFUSED, VERIFY, Branch, caller_booking, customer_facts, later_trip,
                     trip_total_cents)
from .policy_change import ASK_NEW_FLIGHT

BASIC = "Basic"
WANTS = "I'd like to move my flight to a later day, please."
WANTS_WITHIN = "I'd like to move my flight to a later day, but I can't spend more than ${budget} on it."


@dataclass(frozen=True)
class Budget:
    name: str
    over: int | None  # the caller's budget less the total, in cents (None: the caller names no budget)


BRANCHES = (Budget("no budget stated", None), Budget("budget above the total", 6000),
            Budget("budget below the total", -8000), Budget("budget just below the total", -500))
CONVERSATIONS = ((("CUS", "Hi. {wants}"),), (("CUS", "Hello, I hope you can help. {wants}"),))


def sample(draw: Draw) -> Sample:
    budget = BRANCHES[draw.seed % len(BRANCHES)]
    booking = caller_booking(draw, Branch(budget.name, BASIC))
    new = later_trip(draw, booking.trip, costlier=True)
    paid, departs = trip_total_cents(booking.trip, BASIC), booking.trip.outward.departs_at
    upgrade = upgrade_terms(BASIC, STANDARD, departs, draw.calendar.now, trip_total_cents(booking.trip, STANDARD) - paid)
    change = change_terms(STANDARD, booking.booked_at, departs, draw.calendar.now,
                          trip_total_cents(new, STANDARD) - trip_total_cents(booking.trip, STANDARD))
    total = upgrade.amount_cents + change.amount_cents
    limit = None if budget.over is None else _whole_dollars(total + budget.over)
    within = limit is None or total <= limit
    flight = flight_details(new)
    facts = customer_facts(booking, travel_date=flight["departure"], departure_time=flight["outward-departure-time"],
                           budget={"limit": None if limit is None else money(limit)})
    code = booking.code
    details = {"confirmation-code": code, "branch": budget.name, "customer": facts, "flight": flight,
               "wants": WANTS if limit is None else WANTS_WITHIN.format(budget=money(limit).removesuffix(".00")),
               "upgrade": {"fare": STANDARD, "terms": upgrade.answer()}, "terms": change.answer(),
               "total": money(total), "budget": None if limit is None else money(limit),
               "upgrade-first": {"code": code, "within-budget": within},
               "expected": {"outcome": DONE if within else REFUSED, "must_say": [money(total)]},
               "forbidden": [] if within else [{"operation": "upgrade_fare", "code": code},
                                               {"operation": "change_flights", "code": code}]}
    return Sample(details, (booking,))


def _whole_dollars(cents: int) -> int:
    """A budget as a caller says it: whole dollars (rounded down, so a budget below stays below)."""
    return max(cents // 100, 1) * 100


def gold(details: dict) -> list[dict]:
    code, total, fare = details["confirmation-code"], details["total"], details["upgrade"]["fare"]
    quoted = [*steps.find_booking(code), steps.click("modify-booking"), steps.fill("upgrade-fare", fare),
              steps.click("upgrade-quote")]
    upgrade_amount, change = details["upgrade"]["terms"]["amount"], details["terms"]
    if details["expected"]["outcome"] != DONE:
        return [VERIFY, ASK_NEW_FLIGHT, *quoted,
                steps.say(f"I'm sorry: a {BASIC} fare can't be changed unless it is first upgraded to {fare}, and "
                          f"the upgrade and the change together would come to ${total}, more than the "
                          f"${details['budget']} you can spend. I'll leave your booking as it is.", tells=(total,))]
    flight = details["flight"]
    return [VERIFY, ASK_NEW_FLIGHT, *quoted,
            steps.say(f"A {BASIC} fare can't be changed, but it can be upgraded to {fare} for ${upgrade_amount}, and "
                      f"then the change costs ${change['amount']} ({change['rule']}): ${total} in total. "
                      "Shall I go ahead with both?", tells=(total,), asks=("consent",)),
            steps.click("upgrade-submit"), steps.click("change-flights"),
            steps.fill("change-depart", flight["departure"]), steps.click("change-search"),
            *steps.flight_choice(flight, prefix="change-"), steps.click("save-flights"),
            steps.say(f"Done: booking {code} is now {fare} and flies on flight {flight['outward-flight-number']}.",
                      tells=(fare, flight["outward-flight-number"]))]


def gold_calls(details: dict) -> list[dict]:
    code = details["confirmation-code"]
    if details["expected"]["outcome"] != DONE:
        return [call_steps.lookup(code)]
    return [call_steps.lookup(code), call_steps.upgrade(code, details["upgrade"]["fare"]),
            call_steps.search(details["flight"]), call_steps.change(code, details["flight"])]


def upgrade_and_move(booking: dict, details: dict) -> None:
    if details["expected"]["outcome"] == DONE:
        booking["fare"] = details["upgrade"]["fare"]
        booking["flights"] = flights_state(legs(details["flight"]))


TASK = Task(
    name="TASK_UPGRADE_TO_CHANGE",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=changed_booking(upgrade_and_move),
    goal=booking_as_expected,
    instructions=(BRIEFING,),
    conversations=CONVERSATIONS,
)
