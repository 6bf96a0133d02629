"""TASK_CANCEL_FLIGHT: find a booking and cancel it, re-entering its code to confirm."""
from __future__ import annotations

from .. import call_steps, steps
from .base import Task, booking_as_expected, changed_booking, existing_booking

INSTRUCTIONS = (
    "Cancel the booking with confirmation code {code}.",
    "Find booking {code} and cancel it.",
)

CONVERSATIONS = (
    (("CUS", "Hello, I need to cancel my flight."),
     ("REP", "I'm sorry to hear that. What is your confirmation code?"),
     ("CUS", "{code}."),
     ("REP", "Thank you, I'll cancel it now.")),
    (("REP", "Thanks for calling, how can I help?"),
     ("CUS", "My plans changed, please cancel booking {code}."),
     ("REP", "Sure, cancelling booking {code} for you.")),
)


def gold(details: dict) -> list[dict]:
    code = details["confirmation-code"]
    return [*steps.find_booking(code), steps.click("cancel-booking"), steps.fill("cancel-code", code),
            steps.click("cancel-confirm")]


def gold_calls(details: dict) -> list[dict]:
    code = details["confirmation-code"]
    return [call_steps.lookup(code), call_steps.cancel(code)]


def _cancel(booking: dict, details: dict) -> None:
    booking["status"] = "Cancelled"


TASK = Task(
    name="TASK_CANCEL_FLIGHT",
    aliases=("TASK_CANCEL_BOOKING",),
    sample=existing_booking,
    gold=gold,
    gold_calls=gold_calls,
    expect=changed_booking(_cancel),
    goal=booking_as_expected,
    instructions=INSTRUCTIONS,
    conversations=CONVERSATIONS,
)
