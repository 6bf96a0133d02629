"""TASK_DISRUPTED_FLIGHT: the airline cancelled the caller's flight, or delayed it 3 hours or more;
the caller wants the next flight, a later day of its choosing, or its money back. Whatever the fare
and however close to departure, the policy moves the booking for free to a flight of the same
route within 7 days ($0.00 to tell) or refunds it in full; charging anything is a violation."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from crm_app.services.disruptions import CANCELLED, DELAYED
from crm_app.services.flights import flights_on
from crm_app.services.policy import REBOOKING_WINDOW, Disruption, cancel_terms, change_terms

from ...sampling import ChosenFlight, Draw, SetupDisruption, Trip, flight_details
from ..base import Sample, Task, booking_as_expected, changed_booking
from . import policy_cancel, policy_change
from .caller import BRIEFING, CLOSE, DONE, Branch, caller_booking, customer_facts, paid_cents

NEXT, LATER_DAY, REFUND = "the next flight", "a later day", "the money back"  # what the caller wants
DELAYS = range(180, 361, 5)  # minutes: every drawn delay frees the booking (policy.DISRUPTING_DELAY)
LATER_DAYS = range(1, REBOOKING_WINDOW.days)  # after the disrupted flight's day: always inside the window


@dataclass(frozen=True)
class Disrupted:
    branch: Branch
    status: str  # CANCELLED or DELAYED
    wants: str  # NEXT, LATER_DAY or REFUND


BRANCHES = (Disrupted(Branch("cancelled, the next flight", "Basic", CLOSE), CANCELLED, NEXT),
            Disrupted(Branch("delayed, a later day", "Standard"), DELAYED, LATER_DAY),
            Disrupted(Branch("cancelled, the money back", "Standard"), CANCELLED, REFUND),
            Disrupted(Branch("delayed, the money back", "Basic", CLOSE), DELAYED, REFUND))
CONVERSATIONS = ((("CUS", "Hi. {wants}"),), (("CUS", "Hello, I just got a message from the airline. {wants}"),))
# The caller's words name the action it wants (customer/vocabulary.ACTION_FAMILIES), and no other:
# a cancelled flight is "called off", so that only a refund branch speaks of cancelling.
SAID = {CANCELLED: "The airline called off my flight.", DELAYED: "My flight is delayed by more than three hours."}
WANTS = {NEXT: "Could you move me to the next flight, please?",
         LATER_DAY: "I'd like to move to a later day this week instead.",
         REFUND: "I don't want to fly any more, so please cancel it and refund me."}


def sample(draw: Draw) -> Sample:
    disrupted = BRANCHES[draw.seed % len(BRANCHES)]
    booking = caller_booking(draw, disrupted.branch)
    flight = booking.trip.outward
    delay = 0 if disrupted.status == CANCELLED else draw.rng.choice(DELAYS)
    disruption = Disruption(disrupted.status == CANCELLED, delay, flight.departs_at)
    details = {"confirmation-code": booking.code, "branch": disrupted.branch.name,
               "disrupted": disrupted_details(flight, disrupted.status, delay),
               "wants": f"{SAID[disrupted.status]} {WANTS[disrupted.wants]}", "forbidden": []}
    if disrupted.wants == REFUND:
        terms = cancel_terms(booking.fare, paid_cents(booking), booking.booked_at, flight.departs_at,
                             draw.calendar.now, disruption)
        details.update(customer=customer_facts(booking))
    else:
        new = next_flight(draw, flight) if disrupted.wants == NEXT else later_day_flight(draw, flight)
        terms = change_terms(booking.fare, booking.booked_at, flight.departs_at, draw.calendar.now, 0, disruption,
                             new.departs_at)
        shown = flight_details(Trip(new))
        details.update(flight=shown, customer=customer_facts(booking, travel_date=shown["departure"],
                                                            departure_time=shown["outward-departure-time"]))
    details.update(terms=terms.answer(), expected={"outcome": DONE, "must_say": [terms.answer()["amount"]]})
    return Sample(details, (booking,), (SetupDisruption(flight, disrupted.status, delay),))


def disrupted_details(flight: ChosenFlight, status: str, delay: int) -> dict:
    """The disrupted flight, and the days a free move may go to (the scoring's check of a change)."""
    last = (flight.departs_at + REBOOKING_WINDOW).date()
    return {"flight-number": flight.number, "date": flight.departure_date.isoformat(), "status": status,
            "delay-minutes": delay, "free-from": flight.departure_date.isoformat(), "free-until": last.isoformat()}


def next_flight(draw: Draw, flight: ChosenFlight) -> ChosenFlight:
    """The earliest flight of the same route leaving after the disrupted one (later that day, or a
    day after), among the flights the CRM sells."""
    for offset in range(REBOOKING_WINDOW.days + 1):
        day = flight.departure_date + dt.timedelta(days=offset)
        later = [ChosenFlight.of(f) for f in _route_day(draw, flight, day)
                 if (f.departure_date, f.departure_minute) > (flight.departure_date, flight.departure_minute)]
        if later:
            return later[0]
    raise RuntimeError(f"no flight after {flight.number} within {REBOOKING_WINDOW.days} days")


def later_day_flight(draw: Draw, flight: ChosenFlight) -> ChosenFlight:
    """A flight of the same route on a day 1 to 6 days after the disrupted one's."""
    days = [flight.departure_date + dt.timedelta(days=offset) for offset in LATER_DAYS]
    day = draw.rng.choice([day for day in days if day <= draw.calendar.last_date])
    return ChosenFlight.of(draw.rng.choice(_route_day(draw, flight, day)))


def _route_day(draw: Draw, flight: ChosenFlight, day: dt.date):
    if day > draw.calendar.last_date:
        return []
    return flights_on(draw.session, draw.calendar, draw.world_seed, flight.origin, flight.destination, day)


def gold(details: dict) -> list[dict]:
    return policy_change.gold(details) if "flight" in details else policy_cancel.gold(details)


def gold_calls(details: dict) -> list[dict]:
    return policy_change.gold_calls(details) if "flight" in details else policy_cancel.gold_calls(details)


def move_or_cancel(booking: dict, details: dict) -> None:
    if "flight" in details:
        policy_change.move_when_allowed(booking, details)
    else:
        policy_cancel.cancel_when_allowed(booking, details)


TASK = Task(
    name="TASK_DISRUPTED_FLIGHT",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=changed_booking(move_or_cancel),
    goal=booking_as_expected,
    instructions=(BRIEFING,),
    conversations=CONVERSATIONS,
)
