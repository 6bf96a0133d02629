"""A conditional change (the `change` kind, said with a condition): "move it if the change costs at
most $X, otherwise cancel it". The rep must look the change up and tell its cost first; the branch
follows from that quote: within the limit the booking moves, above it the booking is cancelled on
the fare's terms. The limit is drawn from the seed, on either side of the cost."""
from __future__ import annotations

from crm_app.services.policy import cancel_terms, change_terms
from crm_app.services.pricing import money

from .... import call_steps, steps
from ....sampling import Draw, flight_details
from ...base import Sample
from ...hard import policy_cancel, policy_change
from ...hard.caller import (DONE, JUST_BOOKED, Branch, branch_for, caller_booking, customer_facts, later_trip,
                            paid_cents, trip_total_cents)
from ..kind import RequestKind
from .change import asks

BRANCHES = (Branch("moved, within the limit", "Standard"), Branch("cancelled, above the limit", "Flex"),
            Branch("cancelled, above the limit", "Standard"), Branch("moved, within the limit", "Basic", JUST_BOOKED))
MOVED, CANCELLED = "moved", "cancelled"


def sample(draw: Draw) -> Sample:
    branch = branch_for(draw, BRANCHES)
    booking = caller_booking(draw, branch)
    new = later_trip(draw, booking.trip, costlier=True)
    now, departs = draw.calendar.now, booking.trip.outward.departs_at
    change = change_terms(booking.fare, booking.booked_at, departs, now,
                          trip_total_cents(new, booking.fare) - trip_total_cents(booking.trip, booking.fare))
    moves = branch.name.startswith(MOVED)
    limit = _limit(draw, change.amount_cents, moves)
    flight = flight_details(new)
    instead = f"That's more than ${money(limit).removesuffix('.00')}, so please cancel the booking instead."
    facts = customer_facts(booking, travel_date=flight["departure"], departure_time=flight["outward-departure-time"],
                           budget={"limit": money(limit), "instead": instead})
    details = {"confirmation-code": booking.code, "branch": branch.name, "customer": facts, "flight": flight,
               "limit": money(limit), "quote": change.answer(), "quote-first": money(change.amount_cents)}
    if moves:
        details.update(terms=change.answer(), expected={"outcome": DONE, "must_say": [money(change.amount_cents)]},
                       forbidden=[{"operation": "cancel_booking", "code": booking.code}])
    else:
        cancel = cancel_terms(booking.fare, paid_cents(booking), booking.booked_at, departs, now)
        details.update(terms=cancel.answer(), cancels=True, forbidden=[{"operation": "change_flights", "code": booking.code}],
                       expected={"outcome": DONE, "must_say": [money(change.amount_cents), money(cancel.amount_cents)]})
    return Sample(details, (booking,))


def _limit(draw: Draw, cost_cents: int, moves: bool) -> int:
    """A limit in whole dollars at or above the cost (the booking moves), or below it (it is cancelled)."""
    if moves:
        return (cost_cents // 100 + draw.rng.randint(1, 60)) * 100
    return max(cost_cents * draw.rng.randint(30, 90) // 10000, 1) * 100


def says(request: dict, booking: str) -> str:
    return (f"Could you move {booking} to a later day if that costs at most ${request['limit'].removesuffix('.00')}? "
            "If it costs more, please cancel it instead.")


def handle(request: dict) -> list[dict]:
    if not request.get("cancels"):
        return policy_change.change_and_tell(request)
    flight, quote = request["flight"], request["quote"]
    return [steps.click("modify-booking"), steps.click("change-flights"),
            steps.fill("change-depart", flight["departure"]), steps.click("change-search"),
            *steps.flight_choice(flight, prefix="change-"),
            steps.say(f"The change costs ${quote['amount']} ({quote['rule']}). Shall I go ahead?",
                      tells=(request["quote-first"],), asks=("consent",)),
            *steps.find_booking(request["confirmation-code"]),
            *policy_cancel.cancel_and_tell({**request, "expected": {**request["expected"],
                                                                     "must_say": request["expected"]["must_say"][1:]}})]


def calls(request: dict) -> list[dict]:
    if not request.get("cancels"):
        return policy_change.change_calls(request)
    return [call_steps.search(request["flight"]), call_steps.cancel(request["confirmation-code"])]


def change_or_cancel(booking: dict, request: dict) -> None:
    if request.get("cancels"):
        booking["status"] = "Cancelled"
    else:
        policy_change.move_when_allowed(booking, request)


KIND = RequestKind(
    "change", "move a booking if the change costs at most a limit, otherwise cancel it",
    draw=sample, says=says, handle=handle, calls=calls, change=change_or_cancel, asks=asks)
