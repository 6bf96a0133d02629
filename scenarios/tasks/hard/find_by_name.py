"""TASK_FIND_BY_NAME: the caller wants their booking cancelled but has no confirmation code. The
agent finds it by the passenger's last name and travel date (Search bookings), where another
booking of the same name flies that day too; asks which one is theirs; verifies the caller by date
of birth; then acts as the policy says (as TASK_POLICY_CANCEL)."""
from __future__ import annotations

import datetime as dt

from crm_app.airports import offered_airports
from crm_app.services.flights import flights_on

from ... import call_steps, steps
from ...sampling import ChosenFlight, Draw, SetupBooking, Trip
from ..base import Sample, Task, booking_as_expected, changed_booking
from . import policy_cancel
from .caller import BRIEFING

CONVERSATIONS = (
    (("CUS", "Hi, I need to cancel my flight, but I don't have my confirmation code."),),
    (("CUS", "Hello, I'd like to cancel a booking. I'm afraid I lost the confirmation email with the code."),),
)
ASK_NAME_AND_DATE = steps.say("No problem. What is the passenger's last name, and on what date do you travel?",
                              asks=("last_name", "travel_date"))
ASK_WHICH = steps.say("I see two bookings under that name on that day. What is the passenger's first name and "
                      "date of birth?", asks=("first_name", "date_of_birth"))


def sample(draw: Draw) -> Sample:
    drawn = policy_cancel.sample(draw)
    booking = drawn.setup[0]
    facts = {key: value for key, value in drawn.details["customer"].items() if key != "confirmation_code"}
    facts["travel_date"] = booking.trip.outward.departure_date.isoformat()
    return Sample({**drawn.details, "customer": facts}, (booking, _namesake(draw, booking)))


def _namesake(draw: Draw, booking: SetupBooking) -> SetupBooking:
    """Another passenger of the same last name with a flight the same day: the search finds both."""
    person = draw.person()
    while person["first_name"] == booking.passenger["first_name"]:
        person = draw.person()
    last = booking.passenger["last_name"]
    person = {**person, "last_name": last, "email": f"{person['first_name']}.{last}@example.com".lower()}
    day = booking.trip.outward.departure_date
    while True:  # a route-day always has flights; only the route is drawn again when it is the caller's
        origin, destination = draw.rng.sample([row["code"] for row in offered_airports()], 2)
        if (origin, destination) != (booking.trip.outward.origin, booking.trip.outward.destination):
            break
    flight = draw.rng.choice(flights_on(draw.session, draw.calendar, draw.world_seed, origin, destination, day))
    return SetupBooking(draw.code(), Trip(ChosenFlight.of(flight)), person, draw.card(person),
                        booked_at=draw.calendar.now - dt.timedelta(days=draw.rng.randint(10, 60)))


def gold(details: dict) -> list[dict]:
    facts = details["customer"]
    return [ASK_NAME_AND_DATE, steps.click("nav-booking-search"),
            steps.fill("booking-search-lastname", facts["last_name"]),
            steps.fill("booking-search-date", facts["travel_date"]), steps.click("booking-search-submit"),
            ASK_WHICH, steps.fill("booking-search-match", details["confirmation-code"]),
            steps.click("booking-search-open"), *policy_cancel.cancel_and_tell(details)]


def gold_calls(details: dict) -> list[dict]:
    facts = details["customer"]
    return [call_steps.search_bookings(facts["last_name"], facts["travel_date"]),
            call_steps.lookup(details["confirmation-code"]), *policy_cancel.cancel_calls(details)]


TASK = Task(
    name="TASK_FIND_BY_NAME",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=changed_booking(policy_cancel.cancel_when_allowed),
    goal=booking_as_expected,
    instructions=(BRIEFING,),
    conversations=CONVERSATIONS,
)
