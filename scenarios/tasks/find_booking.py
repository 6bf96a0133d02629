"""TASK_FIND_BOOKING: open a booking by its confirmation code."""
from __future__ import annotations

from .. import steps
from .base import Outcome, Task, clicks, existing_booking, fill_values, unchanged, values_differ

INSTRUCTIONS = (
    "Find the booking with confirmation code {code}.",
    "Look up booking {code}.",
)

CONVERSATIONS = (
    (("CUS", "Hi, could you pull up my booking? The confirmation code is {code}."),
     ("REP", "Of course, let me find it.")),
    (("REP", "Hello, how can I help you today?"),
     ("CUS", "I'd like to check my reservation."),
     ("REP", "Can I have your confirmation code?"),
     ("CUS", "It's {code}."),
     ("REP", "Thanks, looking it up now.")),
)


def gold(details: dict) -> list[dict]:
    return steps.find_booking(details["confirmation-code"])


def looked_up(outcome: Outcome) -> str | None:
    """Some booking search asked for the right code."""
    wanted = fill_values(gold(outcome.details))
    searches = clicks(outcome.events, "find-submit")
    if any(values_differ(outcome.events, i, wanted) is None for i in searches):
        return None
    code = wanted["find-code"]
    return f"booking {code} was never looked up" if searches else "no booking search was made"


TASK = Task(
    name="TASK_FIND_BOOKING",
    sample=existing_booking,
    gold=gold,
    expect=unchanged,
    goal=looked_up,
    instructions=INSTRUCTIONS,
    conversations=CONVERSATIONS,
)
