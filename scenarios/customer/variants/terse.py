"""Variant 1, terse: one fact per turn, the first one asked that it has not given yet, in the fewest
words ("QX7R2A."); the next only when asked again; no small talk. Tests whether the rep notices
what it did not get, and asks again for it."""
from __future__ import annotations

import re

from ... import steps as gold_steps
from ..facts import BY_NAME
from ..simulator import (ACKNOWLEDGES, AGREES, ASKS_AGAIN, CLOSES, DECLINES, FACT, LACKING, Part,
                         Turn, speak)
from .base import CustomerVariant, plain_says
from .history import given_before

WORDS = {AGREES: "Yes, go ahead.", DECLINES: "No.", CLOSES: "That's all.", ACKNOWLEDGES: "Okay.",
         ASKS_AGAIN: "What do you need?"}
_LEAD = re.compile(r"^(My [\w ]+? is |It's |I'd like to travel on |I'd like to leave at |It expires |"
                   r"The security code is |The name on the card is )")
WHOLE = ("request", "trip", "claim", "budget", "consent")  # said as the plain caller says them
# One line per fact, to ask again for what the caller has not given yet.
QUESTIONS = {
    "confirmation_code": "What is your confirmation code?",
    "date_of_birth": "What is the passenger's date of birth?",
    "email": "What is the passenger's email address?",
    "first_name": "What is the passenger's first name?",
    "last_name": "What is the passenger's last name?",
    "full_name": "What is the passenger's full name?",
    "title": "What is the passenger's title?",
    "gender": "What is the passenger's gender?",
    "travel_date": "On what date would you like to fly?",
    "departure_time": "At what time would you like to leave?",
    "card_number": "What is the card number?",
    "card_expiry": "When does the card expire?",
    "security_code": "What is the card's security code?",
    "name_on_card": "What is the name on the card?",
}


def bare(name: str, value) -> str:
    """The value alone, as a sentence ("QX7R2A.", "April 5, 1980.")."""
    said = BY_NAME[name].say(value)
    return said if name in WHOLE else _LEAD.sub("", said)


def says(name: str, value) -> tuple[str, ...]:
    return (*plain_says(name, value), WORDS[AGREES] if name == "consent" else bare(name, value))


def speak_tersely(turn: Turn) -> str:
    facts = [part for part in turn.parts if part.kind == FACT]
    kept = _one_fact(turn, facts)
    parts = [_short(part, turn.known) for part in turn.parts if part.kind != FACT or part is kept]
    return speak(Turn(turn.facts, turn.transcript, turn.known, turn.reading, parts))


def _one_fact(turn: Turn, facts: list[Part]) -> Part | None:
    """The first fact asked that the caller has not given in the call, else the first asked."""
    fresh = [part for part in facts if not given_before(turn, part.fact, says(part.fact, turn.known[part.fact]))]
    return (fresh or facts or [None])[0]


def _short(part: Part, known: dict) -> Part:
    if part.kind == FACT:
        return Part(FACT, bare(part.fact, known[part.fact]), part.fact)
    if part.kind == LACKING:
        return Part(LACKING, part.text.removeprefix("I'm sorry, "))
    return Part(part.kind, WORDS.get(part.kind, part.text), part.fact)


def gold(steps: list[dict], details: dict, initial: dict) -> list[dict]:
    """After each line that asks for several facts, a line for each of the others, one at a time."""
    found = []
    for step in steps:
        found.append(step)
        more = [name for name in step.get("asks", ())[1:] if name in QUESTIONS] if step["action"] == "say" else []
        found += [gold_steps.say(QUESTIONS[name], asks=(name,)) for name in more]
    return found


VARIANT = CustomerVariant(1, "terse", "one fact per turn, in the fewest words: the rep must ask again for the rest",
                          speak=speak_tersely, says=says, gold=gold,
                          manner="Speak as tersely as you can: give only one fact per reply, the first one asked that "
                                 "you have not given yet, as the bare value (for example \"QX7R2A.\"), and the next only "
                                 "when asked again. No small talk.")
