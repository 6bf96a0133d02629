"""flight_status: whether a booking's flight is on time; the CRM shows the delays the airline
announced (a delay of under 3 hours, which frees nothing)."""
from __future__ import annotations

from crm_app.services.disruptions import DELAYED
from crm_app.services.policy import delay_text

from .... import steps
from ....sampling import Draw, SetupDisruption
from ...base import Sample
from ...hard.caller import DONE, Branch, branch_for, caller_booking, customer_facts
from ..kind import RequestKind, nothing

ON_TIME, LATE = "on time", "delayed"
BRANCHES = (Branch(ON_TIME, "Standard"), Branch(LATE, "Flex"), Branch(LATE, "Basic"), Branch(ON_TIME, "Basic"))
DELAYS = range(20, 171, 5)  # minutes, all under policy.DISRUPTING_DELAY


def sample(draw: Draw) -> Sample:
    branch = branch_for(draw, BRANCHES)
    booking = caller_booking(draw, branch)
    delay = draw.rng.choice(DELAYS) if branch.name == LATE else 0
    details = {"confirmation-code": booking.code, "branch": branch.name, "customer": customer_facts(booking),
               "status": {"flight-number": booking.trip.outward.number, "delay-minutes": delay},
               "expected": {"outcome": DONE, "must_say": [LATE if delay else ON_TIME]}, "forbidden": []}
    disruptions = (SetupDisruption(booking.trip.outward, DELAYED, delay),) if delay else ()
    return Sample(details, (booking,), disruptions)


def handle(request: dict) -> list[dict]:
    status, told = request["status"], request["expected"]["must_say"]
    if status["delay-minutes"]:
        return [steps.say(f"Flight {status['flight-number']} is delayed by {delay_text(status['delay-minutes'])}.",
                          tells=told)]
    return [steps.say(f"Flight {status['flight-number']} is on time.", tells=told)]


KIND = RequestKind(
    "flight_status", "whether a booking's flight is on time, or how late it is",
    draw=sample, says=lambda request, booking: f"Could you tell me whether {booking} is on time?",
    handle=handle, calls=nothing)
