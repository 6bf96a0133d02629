"""booking_question: a question answered from the booking the CRM shows (what was paid, which fare
it is in), changing nothing."""
from __future__ import annotations

from crm_app.services.pricing import money

from .... import steps
from ....sampling import Draw
from ...base import Sample
from ...hard.caller import DONE, Branch, branch_for, caller_booking, customer_facts, paid_cents
from ..kind import RequestKind, nothing

PAID, FARE = "what was paid", "which fare"
BRANCHES = (Branch(PAID, "Standard"), Branch(FARE, "Flex"), Branch(PAID, "Basic"), Branch(FARE, "Basic"))
ASKED = {PAID: "How much did I pay for {booking}?", FARE: "Which fare is {booking} booked in?"}


def sample(draw: Draw) -> Sample:
    branch = branch_for(draw, BRANCHES)
    booking = caller_booking(draw, branch)
    answer = money(paid_cents(booking)) if branch.name == PAID else booking.fare
    details = {"confirmation-code": booking.code, "branch": branch.name, "customer": customer_facts(booking),
               "question": branch.name, "expected": {"outcome": DONE, "must_say": [answer]}, "forbidden": []}
    return Sample(details, (booking,))


def handle(request: dict) -> list[dict]:
    answer, code = request["expected"]["must_say"][0], request["confirmation-code"]
    said = f"You paid ${answer} for booking {code}." if request["question"] == PAID else \
        f"Booking {code} is in the {answer} fare."
    return [steps.say(said, tells=(answer,))]


KIND = RequestKind(
    "booking_question", "a question answered from the booking: what was paid, which fare",
    draw=sample, says=lambda request, booking: ASKED[request["question"]].format(booking=booking),
    handle=handle, calls=nothing)
