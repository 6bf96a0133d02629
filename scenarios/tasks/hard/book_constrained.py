"""TASK_BOOK_CONSTRAINED: the caller wants a one-way flight meeting a constraint ("the cheapest Flex
fare arriving before 4:35pm"), in a fare family; the passenger's and card's details are given on
request. The agent must book the one flight that meets it, in that fare, and tell the customer the
new booking's confirmation code and the amount paid."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from crm_app.airports import offered_airports
from crm_app.services.flights import flights_on
from crm_app.services.pricing import money
from crm_app.services.schedule import clock_time

from ... import call_steps, steps
from ...sampling import MAX_REDRAWS, ChosenFlight, Draw, Trip, flight_details, passenger_details, payment_details
from .. import book_flight
from ..base import Sample, Task
from .caller import BRIEFING, NEW_CODE, trip_total_cents


@dataclass(frozen=True)
class Wish:
    fare: str
    rule: str  # "arrives before", "leaves after" or "cheapest"


BRANCHES = (Wish("Flex", "arrives before"), Wish("Basic", "leaves after"), Wish("Standard", "cheapest"),
            Wish("Flex", "leaves after"), Wish("Basic", "arrives before"))
CONVERSATIONS = (
    (("CUS", "Hi, I'd like to book a one-way flight from {origin} to {destination} on {depart}: {wish}."),),
    (("CUS", "Hello, I need a one-way flight from {origin} to {destination}, on {depart}. I'd like {wish}."),),
)
ASK_PASSENGER = steps.say("May I have the passenger's title, first and last name, gender, date of birth and email?",
                          asks=("title", "full_name", "gender", "date_of_birth", "email"))
ASK_CARD = steps.say("And the card number, its expiry date, the security code and the name on the card?",
                     asks=("card_number", "card_expiry", "security_code", "name_on_card"))


def sample(draw: Draw) -> Sample:
    wish = BRANCHES[draw.seed % len(BRANCHES)]
    for _ in range(MAX_REDRAWS):
        drawn = _wished_flight(draw, wish)
        if drawn:
            break
    else:
        raise RuntimeError(f"no route-day offering a flight for {wish} in {MAX_REDRAWS} draws")
    flight, runner_up, wish_text = drawn
    person, trip = draw.person(), Trip(flight)
    card = draw.card(person)
    details = {"branch": f"{wish.rule}, {wish.fare}", "flight": flight_details(trip), "fare": wish.fare,
               "wish": wish_text, "passenger": passenger_details(person), "payment-details": payment_details(card),
               "runner-up": runner_up.number,
               "customer": {"title": person["title"], "first_name": person["first_name"],
                            "last_name": person["last_name"], "gender": person["gender"],
                            "date_of_birth": person["date_of_birth"], "email": person["email"],
                            "card_number": card["card_number"], "card_expiry": card["expiry"],
                            "security_code": card["security_code"], "name_on_card": card["name_on_card"]},
               "expected": {"outcome": "done",
                            "must_say": [NEW_CODE, money(trip_total_cents(trip, wish.fare))]},
               "forbidden": []}
    return Sample(details)


def _wished_flight(draw: Draw, wish: Wish):
    """(the flight meeting the wish, the next cheapest that also meets it, the wish in words) on a
    random route-day, or None when that day cannot tell them apart."""
    origin, destination = draw.rng.sample([row["code"] for row in offered_airports()], 2)
    day = draw.calendar.today + dt.timedelta(days=draw.rng.randint(7, draw.calendar.sellable_days - 30))
    offered = [ChosenFlight.of(f) for f in flights_on(draw.session, draw.calendar, draw.world_seed, origin,
                                                       destination, day) if f.arrival_date == f.departure_date]
    if len(offered) < 3:
        return None
    meeting, words = _meeting(draw, wish, offered)
    ranked = sorted(meeting, key=lambda flight: flight.price_cents)
    if len(ranked) < 2 or ranked[0].price_cents == ranked[1].price_cents:
        return None
    return ranked[0], ranked[1], f"the cheapest {wish.fare} fare{words}"


def _meeting(draw: Draw, wish: Wish, offered: list[ChosenFlight]) -> tuple[list[ChosenFlight], str]:
    """The flights meeting the wish's rule at a time drawn so that at least two do and one does not."""
    if wish.rule == "arrives before":
        arrivals = sorted({flight.arrival_minute for flight in offered})
        limit = arrivals[draw.rng.randrange(2, len(arrivals))] if len(arrivals) > 2 else 0
        return [f for f in offered if f.arrival_minute < limit], f" arriving before {clock_time(limit)}"
    if wish.rule == "leaves after":
        departures = sorted({flight.departure_minute for flight in offered})
        limit = departures[draw.rng.randrange(0, len(departures) - 2)] if len(departures) > 2 else 24 * 60
        return [f for f in offered if f.departure_minute > limit], f" leaving after {clock_time(limit)}"
    return offered, ""


def gold(details: dict) -> list[dict]:
    flight, person, card = details["flight"], details["passenger"], details["payment-details"]
    told = details["expected"]["must_say"]
    return [
        ASK_PASSENGER,
        *steps.flight_search(flight),
        *steps.flight_choice(flight),
        steps.fill("fare", details["fare"]),
        steps.click("checkout"),
        *steps.passenger_fills("passenger-", person),
        steps.click("passenger-save"),
        ASK_CARD,
        steps.fill("payment-card-number", card["card-number"]),
        steps.fill("payment-expiry", card["expiry"]),
        steps.fill("payment-security-code", card["security_code"]),
        steps.fill("payment-name-on-card", card["name-on-card"]),
        steps.click("book-flight"),
        steps.say(f"You're booked on flight {flight['outward-flight-number']}: your confirmation code is "
                  f"{told[0]}, and you paid ${told[1]}.", tells=told),
    ]


def gold_calls(details: dict) -> list[dict]:
    booking = call_steps.book(details)
    return [call_steps.search(details["flight"]),
            {**booking, "params": {**booking["params"], "fare": details["fare"]}}]


TASK = Task(
    name="TASK_BOOK_CONSTRAINED",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=book_flight.expect,  # a new booking of these flights, in this fare, for this passenger and card
    goal=book_flight.booked_as_asked,
    instructions=(BRIEFING,),
    conversations=CONVERSATIONS,
)
