"""TASK_FIND_BOOKING: open a booking by its confirmation code."""
from __future__ import annotations

from .. import call_steps, steps
from .base import Outcome, Task, existing_booking, unchanged

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


def gold_calls(details: dict) -> list[dict]:
    return [call_steps.lookup(details["confirmation-code"])]


def looked_up(outcome: Outcome) -> str | None:
    """The last booking lookup the server answered in the scenario found the asked-for booking:
    that is the booking on screen."""
    code = outcome.details["confirmation-code"]
    lookup = outcome.last_call("get_booking")
    if lookup is None:
        return "no booking lookup was made"
    if lookup["params"].get("code") != code:
        return f"the last booking lookup was for {lookup['params'].get('code')!r}, not {code}"
    if lookup["status"] != 200:
        return f"the last booking lookup of {code} was refused (status {lookup['status']})"
    return None


TASK = Task(
    name="TASK_FIND_BOOKING",
    sample=existing_booking,
    gold=gold,
    gold_calls=gold_calls,
    expect=unchanged,
    goal=looked_up,
    instructions=INSTRUCTIONS,
    conversations=CONVERSATIONS,
)
