"""TASK_POLICY_CANCEL: the caller wants their booking cancelled; the policy decides whether it is
refunded, becomes a travel credit, or may not be cancelled at all."""
from __future__ import annotations

from crm_app.services.policy import CREDIT, REFUND, cancel_terms

from ... import call_steps, steps
from ...sampling import Draw
from ..base import Sample, Task, booking_as_expected, changed_booking
from .caller import (BRIEFING, CLOSE, DONE, JUST_BOOKED, VERIFY, Branch, branch_for, caller_booking,
                     customer_facts, expected, forbidden_if_refused, paid_cents)

BRANCHES = (Branch("refund", "Flex"), Branch("credit", "Standard"), Branch("refused", "Basic"),
            Branch("refund, just booked", "Basic", JUST_BOOKED), Branch("refused, departing soon", "Flex", CLOSE))
CONVERSATIONS = ((("CUS", "Hi, I need to cancel my flight, please."),),
                 (("CUS", "Hello, my plans have changed and I'd like to cancel my booking."),))
TOLD = {REFUND: "Your booking {code} is cancelled, and ${amount} will be refunded to your card.",
        CREDIT: "Your booking {code} is cancelled, and you have a travel credit of ${amount}."}


def sample(draw: Draw, branches: tuple[Branch, ...] = BRANCHES) -> Sample:
    branch = branch_for(draw, branches)
    booking = caller_booking(draw, branch)
    terms = cancel_terms(booking.fare, paid_cents(booking), booking.booked_at, booking.trip.outward.departs_at,
                         draw.calendar.now)
    details = {"confirmation-code": booking.code, "branch": branch.name, "customer": customer_facts(booking),
               "terms": terms.answer(), "expected": expected(terms, branch),
               "forbidden": forbidden_if_refused(terms, "cancel_booking", booking.code)}
    return Sample(details, (booking,))


def gold(details: dict) -> list[dict]:
    return [VERIFY, *steps.find_booking(details["confirmation-code"]), *cancel_and_tell(details)]


def cancel_and_tell(details: dict) -> list[dict]:
    """On the open booking: cancel it and tell what the customer gets back, or tell why not."""
    code, terms, told = details["confirmation-code"], details["terms"], details["expected"]["must_say"]
    if details["expected"]["outcome"] != DONE:
        return [steps.say(f"I'm sorry, this booking can't be cancelled. Our policy: {terms['rule']}.", tells=told)]
    return [steps.click("cancel-booking"), steps.fill("cancel-code", code), steps.click("cancel-confirm"),
            steps.say(TOLD[terms["outcome"]].format(code=code, amount=terms["amount"]), tells=told)]


def gold_calls(details: dict) -> list[dict]:
    return [call_steps.lookup(details["confirmation-code"]), *cancel_calls(details)]


def cancel_calls(details: dict) -> list[dict]:
    return [call_steps.cancel(details["confirmation-code"])] if details["expected"]["outcome"] == DONE else []


def cancel_when_allowed(booking: dict, details: dict) -> None:
    if details["expected"]["outcome"] == DONE:
        booking["status"] = "Cancelled"


TASK = Task(
    name="TASK_POLICY_CANCEL",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=changed_booking(cancel_when_allowed),
    goal=booking_as_expected,
    instructions=(BRIEFING,),
    conversations=CONVERSATIONS,
)
