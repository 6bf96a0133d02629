"""temporary_rule (issue 50): the fee of the first checked bag on a booking's flight, where the
scenario holds a temporary rule bulletin (found only by search) that lowers it on flights from the
flight's airport for some days: days that include the flight's or end or start just beside it. The
fee is kb_terms.fee's with the scenario's bulletins: the bulletin's on its days, the article in
force's on others. A rep who ignores the bulletin tells the usual fee on its days, and fails; one
who applies it to a day it does not cover fails too."""
from __future__ import annotations

import datetime as dt

from crm_app.services.kb_terms import fee, temporary_terms
from crm_app.services.knowledge_base import Article
from crm_app.services.pricing import money

from .... import steps
from ....phrasing import airport, spoken_date
from ....sampling import Draw
from ...base import Sample
from ...hard.caller import DONE, Branch, branch_for, caller_booking, customer_facts
from ..kind import RequestKind
from ..reading import read, read_calls, read_steps, wrong

TOPIC, TEMPORARY_CENTS = "first checked bag", 2000  # the fee the rule changes, and what it is on the rule's days
# the rule's days around the flight's day D: (first, last) offsets (the fare: never Flex, which includes a bag)
BRANCHES = (Branch("in force", "Basic"), Branch("ended the day before", "Standard"),
            Branch("starts the day after", "Basic"), Branch("in force, last day", "Standard"))
DAYS = {"in force": (-1, 2), "ended the day before": (-4, -1), "starts the day after": (1, 3), "in force, last day": (-2, 0)}


def bulletin(origin: str, first: dt.date, last: dt.date, today: dt.date) -> Article:
    said = lambda day: spoken_date(day.isoformat(), "long")  # noqa: E731
    usual = fee(TOPIC)
    return Article(f"bulletin-temporary-bag-{origin}".lower(), f"Temporary rule: first checked bag fee at {airport(origin)}",
                   today,
                   f"While the new baggage hall at {airport(origin)} opens, the first checked bag costs "
                   f"${money(TEMPORARY_CENTS)} each way (instead of {usual.said}, {usual.article}) on Basic and Standard "
                   f"bookings whose flight departs from {airport(origin)} from {said(first)} to {said(last)} (both "
                   "included). On other days and at other airports the usual fee applies.",
                   terms=temporary_terms(TOPIC, TEMPORARY_CENTS, origin, first, last))


def sample(draw: Draw) -> Sample:
    branch = branch_for(draw, BRANCHES)
    booking = caller_booking(draw, branch)
    flight = booking.trip.outward
    first, last = (flight.departure_date + dt.timedelta(days=offset) for offset in DAYS[branch.name])
    notice = bulletin(flight.origin, first, last, draw.calendar.today)
    owed = fee(TOPIC, bulletins=(notice,), origin=flight.origin, day=flight.departure_date)
    other = fee(TOPIC) if owed.article == notice.id else fee(TOPIC, bulletins=(notice,), origin=flight.origin, day=first)
    why = (f"the agent told the customer {other.said}, the usual fee ({other.article}); the temporary rule {notice.id} "
           f"makes it {owed.said} on flights from {flight.origin} departing from {first} to {last}, and the flight "
           f"departs on {flight.departure_date}" if owed.article == notice.id else
           f"the agent told the customer {other.said}, the temporary rule's fee ({notice.id}); it covers flights "
           f"departing from {first} to {last}, and the flight departs on {flight.departure_date}: "
           f"{owed.article} says {owed.said}")
    details = {"confirmation-code": booking.code, "branch": branch.name, "customer": customer_facts(booking),
               "topic": TOPIC, "flight": {"number": flight.number, "date": flight.departure_date.isoformat()},
               "rule": {"id": notice.id, "from": first.isoformat(), "to": last.isoformat()},
               "reading": read(f"temporary rule checked bag fee {flight.origin}", [notice.id]),
               "expected": {"outcome": DONE, "must_say": [money(owed.cents)]}, "forbidden": [],
               "wrong": [wrong(money(other.cents), why)]}
    return Sample(details, (booking,), bulletins=(notice,))


def handle(request: dict) -> list[dict]:
    owed, flight = request["expected"]["must_say"][0], request["flight"]
    return [*read_steps(request["reading"]),
            steps.say(f"On flight {flight['number']} on {spoken_date(flight['date'], 'long')} the first checked bag "
                      f"costs ${owed} each way.", tells=(owed,))]


KIND = RequestKind(
    "temporary_rule", "a fee on the booking's flight, where a temporary rule bulletin of the scenario changes it for "
                      "some days (knowledge base)",
    draw=sample, says=lambda request, booking: f"How much will the first checked bag cost on the flight of {booking}?",
    handle=handle, calls=lambda request: read_calls(request["reading"]))
