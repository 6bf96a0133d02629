"""TASK_CORRECTED_REQUEST: the caller wants their flight moved to a later day but first names the
wrong day; when the agent reads the new flight back, the customer corrects it, and the correction
wins. An agent that does not read back, or ignores the correction, moves the booking to the wrong day."""
from __future__ import annotations

import datetime as dt

from crm_app.services.flights import flights_on

from ... import steps
from ...phrasing import spoken_date
from ...sampling import Draw
from ..base import Sample, Task, booking_as_expected, changed_booking
from . import policy_change
from .caller import BRIEFING, JUST_BOOKED, VERIFY, Branch

# Only branches where the change is allowed: the task is about which flight, not whether.
BRANCHES = (Branch("allowed, fee", "Standard"), Branch("allowed, fare difference only", "Flex"),
            Branch("allowed, just booked", "Basic", JUST_BOOKED))


def sample(draw: Draw) -> Sample:
    drawn = policy_change.sample(draw, BRANCHES)
    flight = drawn.details["flight"]
    facts = drawn.details["customer"]
    said_first = _another_day(draw, flight)
    customer = {**facts, "travel_date": said_first, "corrections": {"travel_date": facts["travel_date"]}}
    return Sample({**drawn.details, "customer": customer}, drawn.setup)


def _another_day(draw: Draw, flight: dict) -> str:
    """A day near the right one, with flights on the route (as the first, wrong, answer)."""
    right = dt.date.fromisoformat(flight["departure"])
    for offset in draw.rng.sample([-3, -2, -1, 1, 2, 3], 6):
        day = right + dt.timedelta(days=offset)
        if draw.calendar.first_date < day <= draw.calendar.last_date and \
                flights_on(draw.session, draw.calendar, draw.world_seed, flight["from"], flight["to"], day):
            return day.isoformat()
    raise RuntimeError("no other day with flights near the new flight's")


def gold(details: dict) -> list[dict]:
    facts = details["customer"]
    day = dt.date.fromisoformat(facts["travel_date"])
    read_back = steps.say(f"So that's {spoken_date(facts['travel_date'], 'long')}, leaving at "
                          f"{facts['departure_time']}, correct?", tells=(f"{day:%B} {day.day}",))  # the day read back
    return [VERIFY, policy_change.ASK_NEW_FLIGHT, read_back, *steps.find_booking(details["confirmation-code"]),
            *policy_change.change_and_tell(details)]


TASK = Task(
    name="TASK_CORRECTED_REQUEST",
    sample=sample,
    gold=gold,
    gold_calls=policy_change.gold_calls,
    expect=changed_booking(policy_change.move_when_allowed),
    goal=booking_as_expected,
    instructions=(BRIEFING,),
    conversations=policy_change.CONVERSATIONS,
)
