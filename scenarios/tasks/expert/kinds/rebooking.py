"""rebooking: the airline cancelled or delayed a booking's flight; the caller wants the next flight,
a later day, or its money back, all free (as TASK_DISRUPTED_FLIGHT)."""
from __future__ import annotations

from ...hard import disrupted_flight, policy_cancel, policy_change
from ..kind import RequestKind
from .change import asks


def handle(request: dict) -> list[dict]:
    moves = "flight" in request
    return policy_change.change_and_tell(request) if moves else policy_cancel.cancel_and_tell(request)


def calls(request: dict) -> list[dict]:
    return policy_change.change_calls(request) if "flight" in request else policy_cancel.cancel_calls(request)


def _asks(request: dict) -> list[dict]:
    return asks(request) if "flight" in request else []


KIND = RequestKind(
    "rebooking", "a flight the airline cancelled or delayed: moved or refunded for free",
    draw=disrupted_flight.sample, says=lambda request, booking: f"It's about {booking}. {request['wants']}",
    handle=handle, calls=calls, change=disrupted_flight.move_or_cancel, asks=_asks)
