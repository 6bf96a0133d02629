"""TASK_TWO_REQUESTS: two requests in one call. The passenger's first name is misspelled on the
booking (a correction the policy allows), and the caller also wants the flight moved to a later
day, which the policy may allow (at a cost to tell) or refuse (and the agent must say why)."""
from __future__ import annotations

from dataclasses import replace

from ... import call_steps, steps
from ...sampling import Draw
from ...state import flights_state, passenger_value
from ..base import Sample, Task, booking_as_expected, changed_booking, legs
from . import policy_change
from .caller import BRIEFING, DONE, VERIFY

CONVERSATIONS = (
    (("CUS", "Hi, I have two things: my first name is misspelled on my booking, and I'd like to move my flight "
             "to a later day."),),
    (("CUS", "Hello. Could you fix a typo in my first name on my booking? And I also need to change the date "
             "of my flight."),),
)
ASK_NAME = steps.say("How should the first name be spelled?", asks=("first_name",))


def sample(draw: Draw) -> Sample:
    drawn = policy_change.sample(draw)
    booking = drawn.setup[0]
    right = booking.passenger["first_name"]
    typo = misspelled(right, draw)
    misspelt = replace(booking, passenger={**booking.passenger, "first_name": typo})
    return Sample({**drawn.details, "name-correction": {"from": typo, "to": right}}, (misspelt,))


def misspelled(name: str, draw: Draw) -> str:
    """The name with a letter doubled ("Marria") or two neighbours swapped ("Mraia"): a correction
    of at most 2 characters, which the policy allows."""
    at = draw.rng.randrange(1, len(name))
    doubled = name[:at] + name[at - 1] + name[at:]
    swapped = name[:at - 1] + name[at] + name[at - 1] + name[at + 1:]
    return swapped if draw.rng.random() < 0.5 and swapped != name else doubled


def gold(details: dict) -> list[dict]:
    code, right = details["confirmation-code"], details["name-correction"]["to"]
    asked = [policy_change.ASK_NEW_FLIGHT] if details["expected"]["outcome"] == DONE else []
    return [VERIFY, ASK_NAME, *asked, *steps.find_booking(code), steps.click("modify-booking"),
            steps.fill("modify-passenger-firstname", right), steps.click("modify-passenger-save"),
            *policy_change.change_and_tell(details, on_modify_screen=True)]


def gold_calls(details: dict) -> list[dict]:
    code = details["confirmation-code"]
    return [call_steps.lookup(code), call_steps.update(code, {"firstname": details["name-correction"]["to"]}),
            *policy_change.change_calls(details)]


def _correct_and_move(booking: dict, details: dict) -> None:
    booking["passenger"]["first_name"] = passenger_value("first_name", details["name-correction"]["to"])
    if details["expected"]["outcome"] == DONE:
        booking["flights"] = flights_state(legs(details["flight"]))


TASK = Task(
    name="TASK_TWO_REQUESTS",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=changed_booking(_correct_and_move),
    goal=booking_as_expected,
    instructions=(BRIEFING,),
    conversations=CONVERSATIONS,
)
