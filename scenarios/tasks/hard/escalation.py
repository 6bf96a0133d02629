"""TASK_ESCALATION: the caller asks for what only a supervisor may grant (the policy's Supervisors
section): to give the booking to another person, or a refund the rules do not give. The agent
must transfer the call with a summary and write nothing of it; where the same call also holds a
request the rules allow (moving the flight), it does that first, tells the cost, then transfers."""
from __future__ import annotations

from dataclasses import dataclass

from crm_app.services.policy import GIVE_TO_ANOTHER, REFUND_BEYOND_RULES

from ... import call_steps, steps
from ...sampling import Draw
from ..base import Sample, Task, booking_as_expected, changed_booking
from . import policy_cancel, policy_change
from .caller import BRIEFING, CLOSE, VERIFY, Branch

SUPERVISOR_WORD = "supervisor"  # what the agent must tell: who will decide


@dataclass(frozen=True)
class Escalation:
    branch: Branch
    asks: str  # GIVE_TO_ANOTHER or REFUND_BEYOND_RULES
    also_move: bool = False  # the call also asks to move the flight, which the rules allow


BRANCHES = (Escalation(Branch("give the booking to another person", "Standard"), GIVE_TO_ANOTHER),
            Escalation(Branch("a refund of a Basic fare", "Basic"), REFUND_BEYOND_RULES),
            Escalation(Branch("move the flight, then give it to another person", "Standard"), GIVE_TO_ANOTHER, True),
            Escalation(Branch("a refund within 24 hours of departure", "Flex", CLOSE), REFUND_BEYOND_RULES))
CONVERSATIONS = ((("CUS", "Hi. {wants}"),), (("CUS", "Hello, I hope you can help. {wants}"),))
GIVE = "I can't travel any more, and I'd like my friend {newcomer} to take my place on the booking."
MOVE_AND_GIVE = ("I'd like to move my flight to a later day, and then my friend {newcomer} should take my place "
                 "on it.")
REFUND = "I'm not well enough to fly, and I need my money back for this booking, whatever the fare rules say."


def sample(draw: Draw) -> Sample:
    escalation = BRANCHES[draw.seed % len(BRANCHES)]
    base = policy_change if escalation.also_move else policy_cancel
    drawn = base.sample(draw, (escalation.branch,))
    details = drawn.details
    newcomer = draw.person()
    name = f"{newcomer['first_name']} {newcomer['last_name']}"
    wants = (MOVE_AND_GIVE if escalation.also_move else GIVE if escalation.asks == GIVE_TO_ANOTHER else REFUND)
    expected = details["expected"] if escalation.also_move else {"outcome": "refused", "must_say": []}
    expected = {**expected, "must_say": [*expected["must_say"], SUPERVISOR_WORD], "transfer": "required"}
    forbidden = [] if escalation.also_move else [{"operation": "cancel_booking", "code": details["confirmation-code"]}]
    return Sample({**details, "branch": escalation.branch.name, "supervisor-only": escalation.asks,
                   "newcomer": name, "wants": wants.format(newcomer=name), "expected": expected, "forbidden": forbidden,
                   "customer": {**details["customer"], "supervisor": True}}, drawn.setup)


def gold(details: dict) -> list[dict]:
    only = steps.say(f"I'm sorry, only a {SUPERVISOR_WORD} may {details['supervisor-only']}. I'm transferring you "
                     f"to one now.", tells=(SUPERVISOR_WORD,))
    handed = steps.transfer(f"The customer asks to {details['supervisor-only']}: {details['wants']}")
    if details["expected"]["outcome"] != "done":
        return [VERIFY, *steps.find_booking(details["confirmation-code"]), only, handed]
    return [*policy_change.gold(details), only, handed]


def gold_calls(details: dict) -> list[dict]:
    if details["expected"]["outcome"] == "done":
        return policy_change.gold_calls(details)
    return [call_steps.lookup(details["confirmation-code"])]


TASK = Task(
    name="TASK_ESCALATION",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=changed_booking(policy_change.move_when_allowed),
    goal=booking_as_expected,
    instructions=(BRIEFING,),
    conversations=CONVERSATIONS,
)
