"""cancel: cancel a booking, as TASK_POLICY_CANCEL (refunded, a travel credit, or refused)."""
from __future__ import annotations

from ...hard import policy_cancel
from ..kind import RequestKind

KIND = RequestKind(
    "cancel", "cancel a booking: refunded, a travel credit, or refused",
    draw=policy_cancel.sample, says=lambda request, booking: f"I need to cancel {booking}.",
    handle=policy_cancel.cancel_and_tell, calls=policy_cancel.cancel_calls, change=policy_cancel.cancel_when_allowed)
