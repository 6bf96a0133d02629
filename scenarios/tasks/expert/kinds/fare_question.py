"""fare_question: what moving a booking to a later day would cost, changing nothing (as
TASK_FARE_QUESTION)."""
from __future__ import annotations

from .... import call_steps
from ...hard import fare_question, policy_change
from ...hard.caller import DONE
from ..kind import RequestKind
from .change import asks


def calls(request: dict) -> list[dict]:
    return [call_steps.search(request["flight"])] if request["expected"]["outcome"] == DONE else []


KIND = RequestKind(
    "fare_question", "what moving a booking to a later day would cost, changing nothing",
    draw=policy_change.sample,
    says=lambda request, booking: f"How much would it cost to move {booking} to a later day? I only want to know "
                                  "the price.",
    handle=fare_question.quote, calls=calls, asks=asks)
