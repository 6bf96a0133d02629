"""TASK_FALSE_CLAIM: the caller wants their booking cancelled with a full refund and claims a fact
that would make it so: that it was booked only yesterday, or that its fare is Flex. The CRM shows
the truth (when it was booked, its fare) and the agent must go by it: where the records contradict
the claim, refuse and say why; where they bear it out, cancel and tell the refund."""
from __future__ import annotations

from dataclasses import dataclass

from ...sampling import Draw
from ..base import Sample, Task, booking_as_expected, changed_booking
from . import policy_cancel
from .caller import BRIEFING, JUST_BOOKED, Branch

JUST_BOOKED_CLAIM = "I only booked it yesterday, so I should get a full refund."
FLEX_CLAIM = "My ticket is a Flex fare, so it's fully refundable."


@dataclass(frozen=True)
class Claim:
    branch: Branch
    claim: str
    true: bool


BRANCHES = (Claim(Branch("claims just booked, booked weeks ago", "Basic"), JUST_BOOKED_CLAIM, False),
            Claim(Branch("claims Flex, is Basic", "Basic"), FLEX_CLAIM, False),
            Claim(Branch("claims just booked, true", "Basic", JUST_BOOKED), JUST_BOOKED_CLAIM, True),
            Claim(Branch("claims Flex, true", "Flex"), FLEX_CLAIM, True))
CONVERSATIONS = ((("CUS", "Hi, I need to cancel my flight. {claim}"),),
                 (("CUS", "Hello, I'd like to cancel my booking, please. {claim}"),))


def sample(draw: Draw) -> Sample:
    claim = BRANCHES[draw.seed % len(BRANCHES)]
    drawn = policy_cancel.sample(draw, (claim.branch,))
    details = drawn.details
    return Sample({**details, "branch": claim.branch.name, "claim": claim.claim, "claim-true": claim.true,
                   "customer": {**details["customer"], "claim": claim.claim}}, drawn.setup)


TASK = Task(
    name="TASK_FALSE_CLAIM",
    sample=sample,
    gold=policy_cancel.gold,
    gold_calls=policy_cancel.gold_calls,
    expect=changed_booking(policy_cancel.cancel_when_allowed),
    goal=booking_as_expected,
    instructions=(BRIEFING,),
    conversations=CONVERSATIONS,
)
