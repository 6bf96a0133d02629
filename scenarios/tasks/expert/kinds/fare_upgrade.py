"""fare_upgrade: raise a booking's fare family (Basic to Standard, Standard to Flex), paying the fare
difference; refused within 24 hours of departure."""
from __future__ import annotations

from crm_app.services.policy import upgrade_terms
from crm_app.services.pricing import money

from .... import call_steps, steps
from ....sampling import Draw
from ...base import Sample
from ...hard.caller import (CLOSE, DONE, REFUSED, Branch, branch_for, caller_booking, customer_facts,
                                  paid_cents, refusal_words, trip_total_cents)
from ..kind import RequestKind

BRANCHES = (Branch("Basic to Standard", "Basic"), Branch("Standard to Flex", "Standard"),
            Branch("refused, departing soon", "Basic", CLOSE))
HIGHER = {"Basic": "Standard", "Standard": "Flex"}


def sample(draw: Draw) -> Sample:
    branch = branch_for(draw, BRANCHES)
    booking = caller_booking(draw, branch)
    fare = HIGHER[booking.fare]
    terms = upgrade_terms(booking.fare, fare, booking.trip.outward.departs_at, draw.calendar.now,
                          trip_total_cents(booking.trip, fare) - paid_cents(booking))
    refused = terms.outcome == REFUSED
    details = {"confirmation-code": booking.code, "branch": branch.name, "customer": customer_facts(booking),
               "upgrade": {"fare": fare}, "terms": terms.answer(),
               "expected": {"outcome": REFUSED if refused else DONE,
                            "must_say": [refusal_words(branch)] if refused else [money(terms.amount_cents)]},
               "forbidden": [{"operation": "upgrade_fare", "code": booking.code}] if refused else []}
    return Sample(details, (booking,))


def handle(request: dict) -> list[dict]:
    code, fare, terms, told = (request["confirmation-code"], request["upgrade"]["fare"], request["terms"],
                               request["expected"]["must_say"])
    if request["expected"]["outcome"] != DONE:
        return [steps.say(f"I'm sorry, this booking can't be upgraded now. Our policy: {terms['rule']}.", tells=told)]
    return [steps.click("modify-booking"), steps.fill("upgrade-fare", fare), steps.click("upgrade-quote"),
            steps.say(f"Upgrading to {fare} costs ${terms['amount']} ({terms['rule']}). Shall I go ahead?",
                      tells=told, asks=("consent",)),
            steps.click("upgrade-submit"), steps.say(f"Done: booking {code} is now {fare}.", tells=(fare,))]


def calls(request: dict) -> list[dict]:
    if request["expected"]["outcome"] != DONE:
        return []
    return [call_steps.upgrade(request["confirmation-code"], request["upgrade"]["fare"])]


def upgrade(booking: dict, request: dict) -> None:
    if request["expected"]["outcome"] == DONE:
        booking["fare"] = request["upgrade"]["fare"]


KIND = RequestKind(
    "fare_upgrade", "raise a booking's fare family for the fare difference, or refused close to departure",
    draw=sample,
    says=lambda request, booking: f"I'd like to upgrade {booking} to the {request['upgrade']['fare']} fare.",
    handle=handle, calls=calls, change=upgrade)
