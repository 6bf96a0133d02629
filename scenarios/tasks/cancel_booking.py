"""TASK_CANCEL_FLIGHT: find a booking and cancel it, re-entering its code to confirm."""
from __future__ import annotations

from .. import steps
from ..sampling import Draw
from .base import Sample, Task, booking_as_expected, with_booking

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


def sample(draw: Draw) -> Sample:
    booking = draw.booking()
    return Sample({"confirmation-code": booking.code}, (booking,))


def gold(details: dict) -> list[dict]:
    code = details["confirmation-code"]
    return [*steps.find_booking(code), steps.click("cancel-booking"), steps.fill("cancel-code", code),
            steps.click("cancel-confirm")]


def _cancel(booking: dict, details: dict) -> None:
    booking["status"] = "Cancelled"


TASK = Task(
    name="TASK_CANCEL_FLIGHT",
    aliases=("TASK_CANCEL_BOOKING",),
    sample=sample,
    gold=gold,
    expect=lambda initial, details: with_booking(initial, details, _cancel),
    goal=booking_as_expected,
    instructions=INSTRUCTIONS,
    conversations=CONVERSATIONS,
)
