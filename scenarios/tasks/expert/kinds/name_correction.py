"""name_correction: the passenger's first name is misspelled on a booking (a letter doubled or two
swapped), which the policy lets a rep correct."""
from __future__ import annotations

from dataclasses import replace

from .... import call_steps, steps
from ....sampling import Draw
from ....state import passenger_value
from ...base import Sample
from ...hard import two_requests
from ...hard.caller import DONE, Branch, branch_for, caller_booking, customer_facts
from ..kind import RequestKind

BRANCHES = (Branch("a first name misspelled, Standard", "Standard"), Branch("a first name misspelled, Flex", "Flex"),
            Branch("a first name misspelled, Basic", "Basic"))


def sample(draw: Draw) -> Sample:
    booking = caller_booking(draw, branch_for(draw, BRANCHES))
    right = booking.passenger["first_name"]
    typo = two_requests.misspelled(right, draw)
    details = {"confirmation-code": booking.code, "branch": branch_for(draw, BRANCHES).name,
               "customer": customer_facts(booking), "name-correction": {"from": typo, "to": right},
               "expected": {"outcome": DONE, "must_say": [right]}, "forbidden": []}
    return Sample(details, (replace(booking, passenger={**booking.passenger, "first_name": typo}),))


def handle(request: dict) -> list[dict]:
    code, right = request["confirmation-code"], request["name-correction"]["to"]
    return [steps.click("modify-booking"), steps.fill("modify-passenger-firstname", right),
            steps.click("modify-passenger-save"),
            steps.say(f"I've corrected the first name on booking {code}: it is now {right}.", tells=(right,))]


def calls(request: dict) -> list[dict]:
    return [call_steps.update(request["confirmation-code"], {"firstname": request["name-correction"]["to"]})]


def correct(booking: dict, request: dict) -> None:
    booking["passenger"]["first_name"] = passenger_value("first_name", request["name-correction"]["to"])


KIND = RequestKind(
    "name_correction", "a misspelled first name on a booking, corrected",
    draw=sample,
    says=lambda request, booking: f"The first name on {booking} is misspelled, could you correct it?",
    handle=handle, calls=calls, change=correct, asks=lambda request: [two_requests.ASK_NAME],
    keeps=("first_name",))
