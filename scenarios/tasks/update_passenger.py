"""TASK_UPDATE_PASSENGER_DETAILS: change one to three passenger fields of a booking."""
from __future__ import annotations

import datetime as dt

from crm_app.services.validation import GENDERS, TITLES

from .. import call_steps, steps
from ..sampling import Draw
from ..state import passenger_value
from ..steps import PASSENGER_KEYS
from .base import Sample, Task, booking_as_expected, changed_booking, from_booking

INSTRUCTIONS = (
    "On booking {code}, change {changes}.",
    "Update the passenger details of booking {code}: set {changes}.",
)

CONVERSATIONS = (
    (("CUS", "Hi, I need to correct the passenger details on my booking."),
     ("REP", "Sure. What is the confirmation code?"),
     ("CUS", "{code}."),
     ("REP", "What would you like to change?"),
     ("CUS", "Please change {changes}."),
     ("REP", "Done in a moment.")),
    (("REP", "Hello, how can I help?"),
     ("CUS", "On booking {code}, could you change {changes}?"),
     ("REP", "Certainly, updating it now.")),
)


def _new_value(draw: Draw, key: str, person: dict) -> str:
    """A valid value for the field that differs from the passenger's current one."""
    current = person[PASSENGER_KEYS[key]]
    rng, faker = draw.rng, draw.faker
    if key == "title":
        return rng.choice([t for t in TITLES if t != current])
    if key == "gender":
        return rng.choice([g for g in GENDERS if g != current])
    if key == "email":
        return f"{faker.user_name()}@example.org"  # the current address is always @example.com
    if key == "dob":
        born = draw.calendar.today - dt.timedelta(days=rng.randrange(18 * 365, 80 * 365))
        return (born if born.isoformat() != current else born - dt.timedelta(days=1)).isoformat()
    make = faker.first_name if key == "firstname" else faker.last_name
    return next(name for name in iter(make, None) if name != current)


def sample(draw: Draw) -> Sample:
    booking = draw.booking()
    form_order = tuple(PASSENGER_KEYS)
    keys = set(draw.rng.sample(form_order, draw.rng.randint(1, 3)))
    changes = {key: _new_value(draw, key, booking.passenger) for key in form_order if key in keys}
    return from_booking(booking, {"passenger": changes})


def gold(details: dict) -> list[dict]:
    changes = details["passenger"]
    return [
        *steps.find_booking(details["confirmation-code"]),
        steps.click("modify-booking"),
        *steps.passenger_fills("modify-passenger-", changes),
        steps.click("modify-passenger-save"),
    ]


def gold_calls(details: dict) -> list[dict]:
    code = details["confirmation-code"]
    return [call_steps.lookup(code), call_steps.update(code, details["passenger"])]


def _update(booking: dict, details: dict) -> None:
    for key, value in details["passenger"].items():
        field = PASSENGER_KEYS[key]
        booking["passenger"][field] = passenger_value(field, value)


TASK = Task(
    name="TASK_UPDATE_PASSENGER_DETAILS",
    aliases=("TASK_MODIFY_PASSENGER",),
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=changed_booking(_update),
    goal=booking_as_expected,
    instructions=INSTRUCTIONS,
    conversations=CONVERSATIONS,
)
