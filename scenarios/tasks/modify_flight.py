"""TASK_MODIFY_FLIGHT: move a booking to flights on other dates, same route."""
from __future__ import annotations

from .. import call_steps, steps
from ..sampling import Draw, flight_details
from ..state import flights_state
from .base import Sample, Task, booking_as_expected, changed_booking, from_booking, legs

INSTRUCTIONS = (
    "Move booking {code} to new dates, {dates}: {flights}.",
    "Change the flights of booking {code} to {flights}, {dates}.",
)

CONVERSATIONS = (
    (("CUS", "Hi, I need to change the dates of my trip."),
     ("REP", "Sure. What is your confirmation code?"),
     ("CUS", "{code}."),
     ("REP", "What are the new dates?"),
     ("CUS", "Same route, {dates}."),
     ("REP", "Which flights would you like?"),
     ("CUS", "{flights}."),
     ("REP", "I'll change that for you.")),
    (("REP", "Hello, how can I help today?"),
     ("CUS", "Could you move booking {code}? I'd like {flights}, {dates}."),
     ("REP", "Certainly, changing the flights now.")),
)


def sample(draw: Draw) -> Sample:
    booking = draw.booking()
    return from_booking(booking, {"flight": flight_details(draw.moved_trip(booking.trip))})


def gold(details: dict) -> list[dict]:
    flight = details["flight"]
    dates = [steps.fill("change-depart", flight["departure"])]
    if "return" in flight:
        dates.append(steps.fill("change-return", flight["return"]))
    return [
        *steps.find_booking(details["confirmation-code"]),
        steps.click("modify-booking"),
        steps.click("change-flights"),
        *dates,
        steps.click("change-search"),
        *steps.flight_choice(flight, prefix="change-"),
        steps.click("save-flights"),
    ]


def gold_calls(details: dict) -> list[dict]:
    """Open the booking, search the new dates on its route, move it to the new flights."""
    code, flight = details["confirmation-code"], details["flight"]
    return [call_steps.lookup(code), call_steps.search(flight), call_steps.change(code, flight)]


def _move(booking: dict, details: dict) -> None:
    booking["flights"] = flights_state(legs(details["flight"]))


TASK = Task(
    name="TASK_MODIFY_FLIGHT",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=changed_booking(_move),
    goal=booking_as_expected,
    instructions=INSTRUCTIONS,
    conversations=CONVERSATIONS,
)
