"""Variant 4, unprepared: has no confirmation code at hand when first asked ("I don't have it in
front of me"), and offers its name, date of birth and the day it flies instead; it finds the code
only when asked for it a second time. Tests whether the rep finds the booking another way (Search
bookings by last name and travel date) and verifies the caller all the same."""
from __future__ import annotations

import datetime as dt

from ... import call_steps, steps as gold_steps
from ..facts import BOOKED_ON, BY_NAME
from ..simulator import FACT, Part, Turn, speak
from .base import CustomerVariant
from .history import times_asked

CODE = "confirmation_code"
NOT_AT_HAND = "I'm sorry, I don't have my confirmation code in front of me."
FOUND = "Oh wait, here it is."
FIND_BY_CODE = ("nav-find-booking", "find-code", "find-submit")  # the gold steps that open the booking by its code


def speak_unprepared(turn: Turn) -> str:
    parts = turn.parts
    if any(part.fact == CODE and part.kind == FACT for part in parts):
        first = times_asked(turn, CODE) <= 1
        parts = [piece for part in parts for piece in (_instead(part, turn) if first else _found(part))]
    return speak(Turn(turn.facts, turn.transcript, turn.known, turn.reading, parts))


def _instead(part: Part, turn: Turn) -> list[Part]:
    """The code's place in the reply when first asked: not at hand, and what the caller can give instead."""
    if part.fact != CODE or part.kind != FACT:
        return [part]
    known, offered = turn.known, [Part(FACT, NOT_AT_HAND)]
    if "full_name" in known:
        offered.append(Part(FACT, f"The booking is under {known['full_name']}."))
    if "date_of_birth" in known:
        offered.append(Part(FACT, BY_NAME["date_of_birth"].say(known["date_of_birth"]), "date_of_birth"))
    day = turn.facts.get(BOOKED_ON)
    if isinstance(day, dt.date):
        offered.append(Part(FACT, f"My flight is on {day:%B} {day.day}, {day.year}."))
    return offered


def _found(part: Part) -> list[Part]:
    return [Part(FACT, FOUND), part] if part.fact == CODE and part.kind == FACT else [part]


def booked_on(details: dict, initial: dict) -> str | None:
    """The ISO day the caller's booking flies (its outward flight), from the state the scenario starts from."""
    booking = initial.get(details.get("confirmation-code")) or {}
    return ((booking.get("flights") or {}).get("outward") or {}).get("date")


def _has_code(details: dict) -> bool:
    return CODE in (details.get("customer") or {})


def gold(steps: list[dict], details: dict, initial: dict) -> list[dict]:
    """The booking found by the caller's last name and flight day instead of its code, and the code
    read back to the caller (who confirms it: that verifies it)."""
    targets = [step.get("target") for step in steps]
    start = _find(targets, FIND_BY_CODE)
    day = booked_on(details, initial)
    if not _has_code(details) or start is None or day is None:
        return steps
    code, last = details["confirmation-code"], details["customer"]["last_name"]
    found = [gold_steps.click("nav-booking-search"), gold_steps.fill("booking-search-lastname", last),
             gold_steps.fill("booking-search-date", day), gold_steps.click("booking-search-submit"),
             gold_steps.fill("booking-search-match", code), gold_steps.click("booking-search-open"),
             gold_steps.say(f"I found your booking under that name: confirmation code {code}. Is that right?",
                            asks=(CODE,))]
    return [*steps[:start], *found, *steps[start + len(FIND_BY_CODE):]]


def gold_calls(calls: list[dict], details: dict, initial: dict) -> list[dict]:
    """The search by name before the first lookup of the caller's booking."""
    day = booked_on(details, initial)
    lookup = call_steps.lookup(details.get("confirmation-code", ""))
    if not _has_code(details) or day is None or lookup not in calls:
        return calls
    at = calls.index(lookup)
    return [*calls[:at], call_steps.search_bookings(details["customer"]["last_name"], day), *calls[at:]]


def _find(targets: list, run: tuple[str, ...]) -> int | None:
    return next((index for index in range(len(targets)) if tuple(targets[index:index + len(run)]) == run), None)


VARIANT = CustomerVariant(4, "unprepared", "no confirmation code at hand at first: the rep must find the booking by "
                                           "name and day, and verify the caller all the same",
                          speak=speak_unprepared, gold=gold, gold_calls=gold_calls,
                          manner="You do not have your confirmation code in front of you: the first time the agent "
                                 "asks for it, say so and offer your name, date of birth and the day you fly instead. "
                                 "Only if asked for the code again do you find it.")
