"""TASK_BOOK_FLIGHT: search, pick the flights, enter the passenger and the card, book."""
from __future__ import annotations

from .. import call_steps, steps
from ..sampling import Draw, flight_details, passenger_details, payment_details
from ..state import booking_difference
from .base import NEW, Outcome, Sample, Task, requested_booking

INSTRUCTIONS = (
    "Book a {trip} flight from {origin} to {destination} {dates}: {flights}. The passenger is {name} "
    "({about}). Pay with card {card}, expiry {expiry}, security code {cvv}, name on card {card_name}.",
)

CONVERSATIONS = (
    (("CUS", "Hi, I'd like to book a {trip} flight from {origin} to {destination}, {dates}."),
     ("REP", "Certainly. Which flights would you like?"),
     ("CUS", "{flights}, please."),
     ("REP", "Who is travelling?"),
     ("CUS", "{name}: {about}."),
     ("REP", "And how would you like to pay?"),
     ("CUS", "Card number {card}, expiry {expiry}, security code {cvv}, name on the card {card_name}."),
     ("REP", "Thank you, I'll book that now.")),
    (("REP", "Good morning, how can I help?"),
     ("CUS", "I need a {trip} ticket for {name} from {origin} to {destination} {dates}."),
     ("REP", "I see several flights. Any preference?"),
     ("CUS", "Yes, {flights}."),
     ("REP", "Could I have the passenger's details?"),
     ("CUS", "{about}."),
     ("REP", "And the payment card?"),
     ("CUS", "{card}, expiring {expiry}, code {cvv}, in the name of {card_name}.")),
)


def sample(draw: Draw) -> Sample:
    trip = draw.trip(draw.round_trip())
    person = draw.person()
    card = draw.card(person)
    return Sample({"flight": flight_details(trip), "passenger": passenger_details(person),
                   "payment-details": payment_details(card)})


def gold(details: dict) -> list[dict]:
    person, card = details["passenger"], details["payment-details"]
    return [
        *steps.flight_search(details["flight"]),
        *steps.flight_choice(details["flight"]),
        steps.click("checkout"),
        *steps.passenger_fills("passenger-", person),
        steps.click("passenger-save"),
        steps.fill("payment-card-number", card["card-number"]),
        steps.fill("payment-expiry", card["expiry"]),
        steps.fill("payment-security-code", card["security_code"]),
        steps.fill("payment-name-on-card", card["name-on-card"]),
        steps.click("book-flight"),
    ]


def gold_calls(details: dict) -> list[dict]:
    return [call_steps.search(details["flight"]), call_steps.book(details)]


def expect(initial: dict, details: dict) -> dict:
    return {**initial, NEW: requested_booking(details)}


def booked_as_asked(outcome: Outcome) -> str | None:
    made = [booking for code, booking in outcome.final.items() if code not in outcome.initial]
    if not made:
        return "no booking was made"
    wanted = outcome.expected[NEW]
    return None if wanted in made else booking_difference("the new booking", made[-1], wanted)


TASK = Task(
    name="TASK_BOOK_FLIGHT",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=expect,
    goal=booked_as_asked,
    instructions=INSTRUCTIONS,
    conversations=CONVERSATIONS,
)
