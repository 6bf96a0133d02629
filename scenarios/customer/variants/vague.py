"""Variant 2, vague: says dates and times the way people do ("the 14th", "Saturday the 14th",
"sometime in the evening", "my birthday's the fifth of April, 1980"), exactly only when the rep asks
for the value exactly or asks for it again; a read-back of the right value is confirmed (as by
every caller). Tests whether the rep pins a value down instead of guessing it."""
from __future__ import annotations

import datetime as dt

from ... import steps as gold_steps
from ..simulator import FACT, Part, Turn, speak
from .base import CustomerVariant, plain_says
from .history import asked_exactly, draw, times_asked

LOOSE = ("travel_date", "departure_time")  # said loosely until asked exactly or again
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
            "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
            "twentieth", "twenty-first", "twenty-second", "twenty-third", "twenty-fourth", "twenty-fifth",
            "twenty-sixth", "twenty-seventh", "twenty-eighth", "twenty-ninth", "thirtieth", "thirty-first")
PINNING = {"travel_date": "the exact date, with the month and year,", "departure_time": "the exact departure time"}


def birthday(day: dt.date) -> str:
    return f"My birthday's the {ORDINALS[day.day - 1]} of {day:%B}, {day.year}."


def says(name: str, value) -> tuple[str, ...]:
    return (*plain_says(name, value), *((birthday(value),) if name == "date_of_birth" else ()))


def speak_vaguely(turn: Turn) -> str:
    parts = [_loosely(part, turn) if part.kind == FACT else part for part in turn.parts]
    return speak(Turn(turn.facts, turn.transcript, turn.known, turn.reading, parts))


def _loosely(part: Part, turn: Turn) -> Part:
    value = turn.known[part.fact]
    if part.fact == "date_of_birth":
        return Part(FACT, birthday(value), part.fact)
    if part.fact not in LOOSE or asked_exactly(turn) or times_asked(turn, part.fact) > 1:
        return part
    if part.fact == "travel_date":
        said = draw(turn, "vague day").choice((f"I'd like to go on the {_nth(value.day)}.",
                                               f"{value:%A} the {_nth(value.day)} would be good."))
        return Part(FACT, said)  # not the fact given: the rep must still pin it down
    return Part(FACT, f"Sometime {_part_of_day(value)}, if possible.")


def _nth(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _part_of_day(clock: str) -> str:
    """"7:05pm" -> "in the evening"."""
    hour = int(clock.split(":")[0]) % 12 + (12 if clock.endswith("pm") else 0)
    if hour < 5:
        return "in the middle of the night"
    return "in the morning" if hour < 12 else "in the afternoon" if hour < 17 else "in the evening"


def gold(steps: list[dict], details: dict, initial: dict) -> list[dict]:
    """After each line that asks for a travel date or a time, a line asking for them exactly."""
    found = []
    for step in steps:
        found.append(step)
        loose = [name for name in step.get("asks", ()) if name in LOOSE and name in details.get("customer", {})]
        if step["action"] == "say" and loose:
            wanted = " and ".join(PINNING[name] for name in loose).rstrip(",")
            found.append(gold_steps.say(f"Could you give me {wanted}, please?", asks=tuple(loose)))
    return found


VARIANT = CustomerVariant(2, "vague", "dates and times as people say them (\"the 14th\", \"in the evening\"): "
                                      "the rep must pin them down", speak=speak_vaguely, says=says, gold=gold,
                          manner="Say dates and times the way people do: a travel date as its day of the month only "
                                 "(\"the 14th\"), a time as a part of the day (\"sometime in the evening\"), your "
                                 "birthday in words (\"the fifth of April, 1980\"). Give the exact value only when the "
                                 "agent asks for it exactly, asks for it again, or reads it back.")
