"""What the hard suite's tasks share: the caller's booking, drawn for a branch of the policy; what
the customer knows; the rep's verification question; and what is expected of the call.

A seed draws its branch as `seed % len(branches)`, so that any run of consecutive seeds meets
every branch of a task.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from crm_app.airports import offered_airports
from crm_app.services.bookings import itinerary_lines
from crm_app.services.flights import flights_on, flights_on_days
from crm_app.services.policy import FROZEN_BEFORE_DEPARTURE, Terms
from crm_app.services.pricing import money, total_cents

from ... import steps
from ...sampling import MAX_REDRAWS, ChosenFlight, Draw, SetupBooking, Trip

NORMAL, JUST_BOOKED, CLOSE = "normal", "just booked", "close to departure"  # when the call comes
DONE, REFUSED = "done", "refused"  # the expected outcome of the customer's request
NEW_CODE = "{new booking code}"  # in must_say and gold lines: the code of the booking the agent makes
DAYS_SINCE_BOOKED = (10, 60)
HOURS_SINCE_BOOKED = (2, 20)  # for JUST_BOOKED: inside the policy's 24 hours

BRIEFING = ("You are an agent of the airline's call center and a customer is on the line. Find out what "
            "they need and help them in the CRM, following the airline's policy (the Policy page): verify "
            "the caller before changing anything, do not do what the policy forbids, and tell the customer "
            "the outcome, with any amount.")
VERIFY = steps.say("Could you give me your confirmation code and the passenger's date of birth, please?",
                   asks=("confirmation_code", "date_of_birth"))
# What a refusal must tell the customer: the words of the rule that refuses.
REFUSAL_WORDS = {"Basic": "Basic", CLOSE: "24 hours"}


@dataclass(frozen=True)
class Branch:
    name: str
    fare: str
    timing: str = NORMAL


def branch_for(draw: Draw, branches: tuple[Branch, ...]) -> Branch:
    return branches[draw.seed % len(branches)]


def caller_booking(draw: Draw, branch: Branch) -> SetupBooking:
    """The caller's one-way booking in the branch's fare, booked and departing as its timing says."""
    person = draw.person()
    trip = _close_trip(draw) if branch.timing == CLOSE else draw.trip(round_trip=False)
    now = draw.calendar.now
    if branch.timing == JUST_BOOKED:
        booked_at = now - dt.timedelta(hours=draw.rng.randint(*HOURS_SINCE_BOOKED))
    else:
        booked_at = now - dt.timedelta(days=draw.rng.randint(*DAYS_SINCE_BOOKED))
    return SetupBooking(draw.code(), trip, person, draw.card(person), branch.fare, booked_at)


def _close_trip(draw: Draw) -> Trip:
    """A one-way trip whose flight leaves in the next 24 hours (today later on, or tomorrow early)."""
    now = draw.calendar.now
    for _ in range(MAX_REDRAWS):
        origin, destination = draw.rng.sample([row["code"] for row in offered_airports()], 2)
        day = draw.calendar.today + dt.timedelta(days=draw.rng.randint(0, 1))
        soon = [ChosenFlight.of(flight) for flight in flights_on(draw.session, draw.calendar, draw.world_seed,
                                                                 origin, destination, day)]
        soon = [flight for flight in soon if dt.timedelta(hours=1) < flight.departs_at - now < FROZEN_BEFORE_DEPARTURE]
        if soon:
            return Trip(draw.rng.choice(soon))
    raise RuntimeError(f"no flight leaving within a day in {MAX_REDRAWS} draws")


def paid_cents(booking: SetupBooking) -> int:
    return trip_total_cents(booking.trip, booking.fare)


def trip_total_cents(trip: Trip, fare: str) -> int:
    """What the trip costs in a fare family, taxes and fees included, as the CRM prices it."""
    return total_cents(itinerary_lines(trip.outward, trip.back, fare))


def customer_facts(booking: SetupBooking, **more) -> dict:
    """What the customer knows of their booking, as scenarios/customer/facts.py names the kinds."""
    person = booking.passenger
    return {"confirmation_code": booking.code, "date_of_birth": person["date_of_birth"],
            "email": person["email"], "first_name": person["first_name"], "last_name": person["last_name"], **more}


def expected(terms: Terms, branch: Branch) -> dict:
    """The expected outcome and what the agent must tell: the amount, or the refusing rule's words."""
    if terms.outcome == "refused":
        return {"outcome": REFUSED, "must_say": [refusal_words(branch)]}
    return {"outcome": DONE, "must_say": [money(terms.amount_cents)]}


def forbidden_if_refused(terms: Terms, operation: str, code: str) -> list[dict]:
    """The writes the policy forbids in this call: `operation` on the booking, when the terms refuse it."""
    return [{"operation": operation, "code": code}] if terms.outcome == "refused" else []


def refusal_words(branch: Branch) -> str:
    return REFUSAL_WORDS[CLOSE] if branch.timing == CLOSE else REFUSAL_WORDS[branch.fare]


def later_trip(draw: Draw, trip: Trip, costlier: bool) -> Trip:
    """A flight on the same route 2 to 14 days after `trip`'s; with `costlier`, one that costs more
    when there is one (so that a change has a fare difference to tell)."""
    old = trip.outward
    days = [old.departure_date + dt.timedelta(days=offset) for offset in range(2, 15)]
    days = [day for day in days if day <= draw.calendar.last_date]
    offered = [ChosenFlight.of(flight) for flights in flights_on_days(
        draw.session, draw.calendar, draw.world_seed, old.origin, old.destination, days) for flight in flights]
    dearer = [flight for flight in offered if flight.price_cents > old.price_cents]
    return Trip(draw.rng.choice(dearer if costlier and dearer else offered))
