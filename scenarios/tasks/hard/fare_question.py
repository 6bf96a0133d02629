"""TASK_FARE_QUESTION: the caller asks what moving their flight to a later day would cost, and
changes nothing: the agent looks the new flight up, tells the amount (or that the policy refuses
the change), and leaves the booking as it is."""
from __future__ import annotations

from ... import call_steps, steps
from ..base import Task, booking_as_expected, unchanged
from . import policy_change
from .caller import BRIEFING, DONE, VERIFY

CONVERSATIONS = (
    (("CUS", "Hi, how much would it cost to move my flight to a later day? I only want to know the price."),),
    (("CUS", "Hello, before I decide anything: what would I pay to change my flight to another day?"),),
)


def gold(details: dict) -> list[dict]:
    asked = [policy_change.ASK_NEW_FLIGHT] if details["expected"]["outcome"] == DONE else []
    return [VERIFY, *asked, *steps.find_booking(details["confirmation-code"]), *quote(details)]


def quote(details: dict) -> list[dict]:
    """On the open booking: look the new flight up and tell what the change would cost, or tell why
    the policy refuses it; change nothing."""
    terms, told = details["terms"], details["expected"]["must_say"]
    if details["expected"]["outcome"] != DONE:
        return [steps.say(f"I'm sorry, this booking can't be changed at all. Our policy: {terms['rule']}.",
                          tells=told)]
    # Choosing the new flight shows what the change costs; the gold path stops before that choice,
    # as a choice with no click after it is not scored (evaluator.groups).
    return [steps.click("modify-booking"), steps.click("change-flights"),
            steps.fill("change-depart", details["flight"]["departure"]), steps.click("change-search"),
            steps.say(f"That change would cost ${terms['amount']} ({terms['rule']}). I haven't changed anything.",
                      tells=told)]


def gold_calls(details: dict) -> list[dict]:
    code = details["confirmation-code"]
    if details["expected"]["outcome"] != DONE:
        return [call_steps.lookup(code)]
    return [call_steps.lookup(code), call_steps.search(details["flight"])]


TASK = Task(
    name="TASK_FARE_QUESTION",
    sample=policy_change.sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=unchanged,
    goal=booking_as_expected,
    instructions=(BRIEFING,),
    conversations=CONVERSATIONS,
)
