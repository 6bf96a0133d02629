"""What a task type is: how to draw it, what to say, the gold steps, and what success means."""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

from crm_app.services.fares import STANDARD
from crm_app.services.knowledge_base import Article

from .. import phrasing
from ..sampling import Draw, SetupBooking, SetupDisruption
from ..state import booking_difference, planned_state
from ..steps import PASSENGER_KEYS

NEW = "(new booking)"  # key of a booking the task makes; its real code is random and not compared


@dataclass(frozen=True)
class Sample:
    """A drawn scenario: its details, the bookings it starts with, the flights the airline
    disrupted in it and its own knowledge-base bulletins (crm_app/services/knowledge_base.py)."""

    details: dict
    setup: tuple[SetupBooking, ...] = ()
    disruptions: tuple[SetupDisruption, ...] = ()
    bulletins: tuple[Article, ...] = ()

    def card_numbers(self) -> list[str]:
        numbers = [booking.card["card_number"] for booking in self.setup]
        for details in (self.details, *self.details.get("requests", ())):  # a call of several requests: each
            if "payment-details" in details:
                numbers.append(details["payment-details"]["card-number"])
        return numbers

    def initial_state(self) -> dict:
        return {b.code: planned_state("Confirmed", b.trip.state_legs(), b.passenger, b.card, b.fare)
                for b in self.setup}


# ---- samples ----

def from_booking(booking: SetupBooking, details: dict | None = None) -> Sample:
    """A scenario that starts from `booking` and names it by its code, plus more `details`."""
    return Sample({"confirmation-code": booking.code, **(details or {})}, (booking,))


def existing_booking(draw: Draw) -> Sample:
    """A scenario about one random existing booking, named by its code alone."""
    return from_booking(draw.booking())


@dataclass(frozen=True)
class Outcome:
    """Everything a success check may look at. `calls` are the JSON API requests the server
    answered inside the scenario, in arrival order (`scenarios/calls.py`)."""

    details: dict
    events: list[dict]
    initial: dict
    final: dict
    expected: dict = field(default_factory=dict)
    calls: list[dict] = field(default_factory=list)

    def last_call(self, operation: str) -> dict | None:
        return next((call for call in reversed(self.calls) if call["operation"] == operation), None)


@dataclass(frozen=True)
class Task:
    name: str
    sample: Callable[[Draw], Sample]
    gold: Callable[[dict], list[dict]]  # the gold UI steps (scenarios/steps.py)
    gold_calls: Callable[[dict], list[dict]]  # the gold API calls of that path (scenarios/call_steps.py)
    expect: Callable[[dict, dict], dict]  # (initial state, details) -> the state the gold steps leave
    goal: Callable[[Outcome], str | None]  # why the task's goal does not hold, or None when it does
    instructions: tuple[str, ...]
    conversations: tuple[tuple[tuple[str, str], ...], ...]
    aliases: tuple[str, ...] = ()

    def instruction(self, draw: Draw, details: dict, templates: tuple[str, ...] = ()) -> str:
        """The instruction, from the task's own templates unless a suite gives others."""
        return phrasing.instruction(templates or self.instructions, details, draw.text_rng, draw.flight_numbers)

    def conversation(self, draw: Draw, details: dict) -> list[dict]:
        return phrasing.conversation(self.conversations, details, draw.text_rng, draw.flight_numbers)


# ---- expected final states ----

def unchanged(initial: dict, details: dict) -> dict:
    return initial


def changed_booking(change: Callable[[dict, dict], None]) -> Callable[[dict, dict], dict]:
    """An `expect`: `initial` with `change(booking, details)` applied to the booking named in details."""
    def expect(initial: dict, details: dict) -> dict:
        expected = copy.deepcopy(initial)
        change(expected[details["confirmation-code"]], details)
        return expected
    return expect


def legs(flight: dict) -> list[tuple[str, str, str]]:
    """(direction, flight number, date) of the flights named in a details `flight` object."""
    found = [("outward", flight["outward-flight-number"], flight["departure"])]
    if "return" in flight:
        found.append(("return", flight["return-flight-number"], flight["return"]))
    return found


def requested_booking(details: dict) -> dict:
    """The booking that the details of a booking task describe."""
    person = {PASSENGER_KEYS[key]: value for key, value in details["passenger"].items()}
    card = details["payment-details"]
    return planned_state("Confirmed", legs(details["flight"]), person,
                         {"card_number": card["card-number"], "expiry": card["expiry"],
                          "name_on_card": card["name-on-card"]}, details.get("fare", STANDARD))


# ---- goals ----

def booking_as_expected(outcome: Outcome) -> str | None:
    code = outcome.details["confirmation-code"]
    return booking_difference(f"booking {code}", outcome.final.get(code), outcome.expected[code])
