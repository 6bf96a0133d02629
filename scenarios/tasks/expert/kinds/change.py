"""change: move a booking to a later day, as TASK_POLICY_CHANGE (a fee and the fare difference, the
difference only, or refused)."""
from __future__ import annotations

from ...hard import policy_change
from ...hard.caller import DONE
from ..kind import RequestKind


def asks(request: dict) -> list[dict]:
    return [policy_change.ASK_NEW_FLIGHT] if request["expected"]["outcome"] == DONE else []


KIND = RequestKind(
    "change", "move a booking to a later day, at the cost the fare's rules give, or refused",
    draw=policy_change.sample, says=lambda request, booking: f"I'd like to move {booking} to a later day.",
    handle=policy_change.change_and_tell, calls=policy_change.change_calls, change=policy_change.move_when_allowed,
    asks=asks)
