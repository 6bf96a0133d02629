"""supervisor: what only a supervisor may grant (giving the booking to another person, a refund the
rules do not give), as TASK_ESCALATION: the rep writes nothing of it, tells the caller and transfers
the call, which ends it; so it comes last."""
from __future__ import annotations

from crm_app.services.policy import GIVE_TO_ANOTHER, REFUND_BEYOND_RULES

from .... import steps
from ....sampling import Draw
from ...base import Sample
from ...hard import policy_cancel
from ...hard.caller import Branch
from ...hard.escalation import SUPERVISOR_WORD
from ..kind import RequestKind, nothing

TRANSFER = "transfer"  # the expected outcome: only a supervisor may grant it
BRANCHES = ((Branch("give the booking to another person", "Standard"), GIVE_TO_ANOTHER),
            (Branch("a refund of a Basic fare", "Basic"), REFUND_BEYOND_RULES))
WANTS = {GIVE_TO_ANOTHER: "I can't travel any more, and I'd like my friend {newcomer} to take my place on {booking}.",
         REFUND_BEYOND_RULES: "I need my money back for {booking}, whatever the fare rules say."}


def sample(draw: Draw) -> Sample:
    branch, asks = BRANCHES[draw.seed % len(BRANCHES)]
    drawn = policy_cancel.sample(draw, (branch,))
    newcomer = draw.person()
    details = {**drawn.details, "supervisor-only": asks, "newcomer": f"{newcomer['first_name']} {newcomer['last_name']}",
               "expected": {"outcome": TRANSFER, "must_say": [SUPERVISOR_WORD], "transfer": "required"},
               "forbidden": [{"operation": "cancel_booking", "code": drawn.details["confirmation-code"]},
                             {"operation": "update_passenger", "code": drawn.details["confirmation-code"]}],
               "customer": {**drawn.details["customer"], "supervisor": True}}
    return Sample(details, drawn.setup)


def says(request: dict, booking: str) -> str:
    return WANTS[request["supervisor-only"]].format(newcomer=request["newcomer"], booking=booking)


def handle(request: dict) -> list[dict]:
    return [steps.say(f"I'm sorry, only a {SUPERVISOR_WORD} may {request['supervisor-only']}. I'm transferring you "
                      "to one now.", tells=(SUPERVISOR_WORD,)),
            steps.transfer(f"The customer asks to {request['supervisor-only']} on booking "
                           f"{request['confirmation-code']}.")]


KIND = RequestKind(
    "supervisor", "what only a supervisor may grant: the call is transferred, nothing written",
    draw=sample, says=says, handle=handle, calls=nothing, ends_call=True)
