"""waiver (issue 50): whether the weather waiver covers the caller's flight. The scenario holds its
own bulletins (crm_app/services/knowledge_base.py: a scenario's rows, written again by a reset,
found only by search): one waiving change fees on the flight's route for some days, which include
the flight's day or end or start just beside it (the answer is kb_terms.covering_waiver's), and a
schedule change on the same route, which waives nothing."""
from __future__ import annotations

import datetime as dt

from crm_app.services.kb_terms import covering_waiver, waiver_terms
from crm_app.services.knowledge_base import Article

from .... import steps
from ....phrasing import airport, spoken_date
from ....sampling import Draw
from ...base import Sample
from ...hard.caller import DONE, Branch, branch_for, caller_booking, customer_facts
from ..kind import RequestKind
from ..reading import read, read_calls, read_steps, wrong

COVERED, NOT_COVERED = "is covered", "not covered"  # what the rep must say (told as words)
# the waiver's days around the flight's day D: (first, last) offsets
BRANCHES = (Branch("covered", "Basic"), Branch("ended the day before", "Standard"),
            Branch("starts the day after", "Basic"), Branch("covered, last day", "Standard"))
DAYS = {"covered": (-1, 2), "ended the day before": (-4, -1), "starts the day after": (1, 3), "covered, last day": (-2, 0)}


def bulletin(origin: str, destination: str, first: dt.date, last: dt.date, today: dt.date) -> Article:
    said = lambda day: spoken_date(day.isoformat(), "long")  # noqa: E731
    return Article(f"bulletin-waiver-{origin}-{destination}".lower(),
                   f"Weather waiver: {airport(origin)} to {airport(destination)}", today,
                   f"Storms are forecast on the route from {airport(origin)} to {airport(destination)}. Bookings on "
                   f"its flights departing from {said(first)} to {said(last)} (both included) may be changed with no "
                   "change fee and no fare difference. Flights departing on other days are not covered.",
                   terms=waiver_terms(origin, destination, first, last))


def schedule_change(origin: str, destination: str, day: dt.date, today: dt.date) -> Article:
    return Article(f"bulletin-schedule-{origin}-{destination}".lower(),
                   f"Schedule change: {airport(origin)} to {airport(destination)}", today,
                   f"From {spoken_date(day.isoformat(), 'long')} the evening flights from {airport(origin)} to "
                   f"{airport(destination)} leave 30 minutes later. Bookings keep their flights and their fare's rules: "
                   "a change of 30 minutes waives no fee.")


def sample(draw: Draw) -> Sample:
    branch = branch_for(draw, BRANCHES)
    booking = caller_booking(draw, branch)
    flight = booking.trip.outward
    first, last = (flight.departure_date + dt.timedelta(days=offset) for offset in DAYS[branch.name])
    notice = bulletin(flight.origin, flight.destination, first, last, draw.calendar.today)
    covered = covering_waiver((notice,), flight.origin, flight.destination, flight.departure_date) is not None
    told, other = (COVERED, NOT_COVERED) if covered else (NOT_COVERED, COVERED)
    details = {"confirmation-code": booking.code, "branch": branch.name, "customer": customer_facts(booking),
               "flight": {"number": flight.number, "date": flight.departure_date.isoformat()},
               "waiver": {"id": notice.id, "from": first.isoformat(), "to": last.isoformat()},
               "reading": read(f"weather waiver {flight.origin} {flight.destination}", [notice.id]),
               "expected": {"outcome": DONE, "must_say": [told]}, "forbidden": [],
               "wrong": [wrong(other, f"the agent told the customer the flight {other}; bulletin {notice.id} waives "
                                      f"flights departing from {first} to {last}, and it departs on "
                                      f"{flight.departure_date}")]}
    shifted = schedule_change(flight.origin, flight.destination, draw.calendar.today, draw.calendar.today)
    return Sample(details, (booking,), bulletins=(notice, shifted))


def handle(request: dict) -> list[dict]:
    flight, waiver, told = request["flight"], request["waiver"], request["expected"]["must_say"][0]
    day = spoken_date(flight["date"], "long")
    said = (f"Yes, flight {flight['number']} on {day} is covered by the weather waiver: it can be changed with no "
            "change fee and no fare difference." if told == COVERED else
            f"I'm sorry, flight {flight['number']} on {day} is not covered: the weather waiver is for flights "
            f"departing from {spoken_date(waiver['from'], 'long')} to {spoken_date(waiver['to'], 'long')}.")
    return [*read_steps(request["reading"]), steps.say(said, tells=(told,))]


KIND = RequestKind(
    "waiver", "whether a weather waiver bulletin of the scenario covers the booking's flight (knowledge base)",
    draw=sample, says=lambda request, booking: f"Is the flight of {booking} covered by the weather waiver?",
    handle=handle, calls=lambda request: read_calls(request["reading"]))
