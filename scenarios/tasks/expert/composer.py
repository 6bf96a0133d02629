"""The composer (issue 49): a call of 2 to 4 requests built from a template, a pure function of
(template, seed) like every scenario.

Each request is drawn by its kind on a booking of its own (a sub-draw of the seed: request i draws
with seed + i, so that consecutive seeds meet every branch of every kind). The first concerns the
caller's own booking, whose code and date of birth verify the caller; each later one a booking of
a travel companion's, which the caller names by passenger, route and date, never by code: the rep
finds it with Search bookings. A new booking has no booking to find. The caller says the first
request in its opening line and brings up each next one as its template says (agenda.py): once the
one before was handled, or only when the rep asks whether there is anything else.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from crm_app.services.kb_terms import covering_waiver

from ... import call_steps, steps
from ...customer.agenda import AFTER, ASKED, OPENING
from ...phrasing import airport, spoken_date
from ...sampling import Draw
from ...state import booking_difference
from ..base import NEW, Outcome, Sample, Task, requested_booking
from ..hard.caller import NEW_CODE, VERIFY
from .kind import IDENTITY, RequestKind
from .kinds import ALL_KINDS, CONDITIONAL, KINDS, kind_of

BRIEFING = ("You are an agent of the airline's call center and a customer is on the line, perhaps with several "
            "requests, about their own booking or those of people they travel with. Find out everything they need "
            "and help them in the CRM, following the airline's policy (its articles in the Knowledge base, and the "
            "notices of the day there: search it for the rule that applies): verify the caller before "
            "changing anything (a verified caller may handle the bookings of their travel companions), do not do "
            "what the policy forbids, and tell the customer the outcome of each request, with any amount.")
ANYTHING_ELSE = "Is there anything else I can help you with?"


@dataclass(frozen=True)
class Asked:
    """One request of a template: its kind, how the caller brings it up, and how it is put."""
    kind: str
    reveal: str = AFTER  # AFTER or ASKED (the first request is always said at the opening)
    conditional: bool = False  # (change) "move it if it costs at most $X, otherwise cancel it"
    revised_from: str | None = None  # (the first request) the kind the caller asks for first, then takes back
    outcome: str | None = None  # the outcome its draw must have (done, refused, transfer); None: any

    def kind_object(self) -> RequestKind:
        return CONDITIONAL if self.conditional else ALL_KINDS[self.kind]


@dataclass(frozen=True)
class Template:
    name: str
    requests: tuple[Asked, ...]
    split: str  # "train" or "test" (templates.py)

    @property
    def kinds(self) -> list[str]:
        return [asked.kind for asked in self.requests]

    def task(self) -> Task:
        return Task(name=self.name, sample=lambda draw: compose(self, draw), gold=gold, gold_calls=gold_calls,
                    expect=expect, goal=as_expected, instructions=(BRIEFING,), conversations=((("CUS", "{opening}"),),))


def compose(template: Template, draw: Draw) -> Sample:
    samples = []
    for i, asked in enumerate(template.requests):
        samples.append(_drawn(asked, draw, template, i, samples))
    requests = [_request(i, asked, sample) for i, (asked, sample) in enumerate(zip(template.requests, samples))]
    caller = {name: value for name, value in requests[0]["customer"].items() if name in IDENTITY}
    agenda = [{"says": request["says"], "reveal": request["reveal"], "facts": kind_of(request).own_facts(request),
               "handled": [value for value in request["expected"]["must_say"] if value != NEW_CODE],
               **({"revision": request["revision"]} if "revision" in request else {})}
              for request in requests]
    transfer = any(request["expected"].get("transfer") for request in requests)
    details = {"template": template.name, "confirmation-code": requests[0]["confirmation-code"],
               "customer": {**caller, "requests": agenda}, "opening": f"Hi. {requests[0]['says']}",
               "requests": requests,
               "expected": {"outcome": "several", "must_say": [v for r in requests for v in r["expected"]["must_say"]],
                            **({"transfer": "required"} if transfer else {})},
               "forbidden": [rule for request in requests for rule in request["forbidden"]]}
    return Sample(details, tuple(b for sample in samples for b in sample.setup),
                  tuple(d for sample in samples for d in sample.disruptions),
                  tuple(b for sample in samples for b in sample.bulletins))


MAX_TRIES = 20  # sub-draws tried for a request whose template names its outcome


def _drawn(asked: Asked, draw: Draw, template: Template, index: int, earlier: list[Sample]) -> Sample:
    """Request `index` drawn with seed + index (+ the tries it took to meet the outcome asked for,
    and to keep the waivers of one request off the bookings of another)."""
    kind = asked.kind_object()
    for attempt in range(MAX_TRIES):
        sample = kind.draw(Draw(draw.session, draw.calendar, draw.world_seed, f"{template.name}:{index}",
                                draw.seed + index + attempt, draw.round_trips_only, draw.flight_numbers))
        if asked.outcome in (None, sample.details["expected"]["outcome"]) and not _waived(sample, earlier):
            return sample
    raise RuntimeError(f"{template.name}: no {asked.kind} request with outcome {asked.outcome} in {MAX_TRIES} draws")


def _waived(sample: Sample, earlier: list[Sample]) -> bool:
    """Whether a weather waiver of this request covers a booking of an earlier one, or one of theirs
    covers its booking: each request's terms are drawn without the others' bulletins, and a waiver
    makes a change free (crm_app/services/policy.py)."""
    def covers(notices, bookings) -> bool:
        return any(covering_waiver(notices, flight.origin, flight.destination, flight.departure_date)
                   for booking in bookings for _, flight in booking.trip.legs())
    return (covers(sample.bulletins, [b for s in earlier for b in s.setup])
            or covers([n for s in earlier for n in s.bulletins], sample.setup))


def _request(index: int, asked: Asked, sample: Sample) -> dict:
    """The drawn request as the details hold it: the kind's own details, the booking it concerns, how
    the caller names it and asks (first asking for another kind, then taking it back, when revised)."""
    kind = asked.kind_object()
    request = {**sample.details, "kind": kind.name, "index": index, "reveal": OPENING if index == 0 else asked.reveal,
               **({"conditional": True} if asked.conditional else {})}
    named = ""
    if kind.on_booking:
        booking = sample.setup[0]
        request["booking"] = booking.code
        request["named"] = {"last_name": booking.passenger["last_name"],
                            "date": booking.trip.outward.departure_date.isoformat()}
        named = "my booking" if index == 0 else _named(booking, request.get("known_as"))
    request["says"] = kind.says(request, named)
    if asked.revised_from:
        request["revision"] = f"Actually, I've changed my mind. {request['says']}"
        request["says"] = KINDS[asked.revised_from].says(request, named)
    return request


def _named(booking, known_as: str | None = None) -> str:
    """A companion's booking as the caller names it: passenger (`known_as`, when the booking's name is
    not what people call them), route and date, never the code."""
    flight, person = booking.trip.outward, booking.passenger
    name = known_as or f"{person['first_name']} {person['last_name']}"
    return (f"the booking of my travel companion {name}, flying from "
            f"{airport(flight.origin)} to {airport(flight.destination)} on "
            f"{spoken_date(flight.departure_date.isoformat(), 'long')}")


# ---- gold ----

def gold(details: dict) -> list[dict]:
    """Verify the caller; then each request in turn: ask for its facts, find its booking (or go to
    the flight search, for a new one), handle it; before a request the caller brings up only when
    asked, ask whether there is anything else."""
    found = [VERIFY]
    requests = details["requests"]
    for request in requests:
        kind, i = kind_of(request), request["index"]
        if i and request["reveal"] == ASKED:
            found.append({**steps.say(ANYTHING_ELSE), "raises": i, "request": i - 1})
        find = ((steps.find_booking(request["booking"]) if i == 0 else _search(request)) if kind.looked_up else []) \
            if kind.on_booking else [steps.click("nav-home")]  # a new booking starts from the flight search
        found += [{**step, "request": i} for step in (*kind.asks(request), *find, *kind.handle(request))]
    return [{**found[0], "request": 0}, *found[1:]]


def _search(request: dict) -> list[dict]:
    named = request["named"]
    return [steps.click("nav-booking-search"), steps.fill("booking-search-lastname", named["last_name"]),
            steps.fill("booking-search-date", named["date"]), steps.click("booking-search-submit"),
            steps.fill("booking-search-match", request["booking"]), steps.click("booking-search-open")]


def gold_calls(details: dict) -> list[dict]:
    found = []
    for request in details["requests"]:
        kind, i = kind_of(request), request["index"]
        found_here = kind.on_booking and kind.looked_up
        lookup = [call_steps.lookup(request["booking"])] if found_here else []
        search = [call_steps.search_bookings(**request["named"])] if found_here and i else []
        found += [{**call, "request": i} for call in (*search, *lookup, *kind.calls(request))]
    return found


# ---- the expected end ----

def expect(initial: dict, details: dict) -> dict:
    expected = copy.deepcopy(initial)
    for request in details["requests"]:
        kind = kind_of(request)
        if not kind.on_booking:
            expected[NEW] = requested_booking(request)
        elif kind.change is not None:
            kind.change(expected[request["booking"]], request)
    return expected


def request_state(request: dict, outcome: Outcome) -> str | None:
    """Why the request's booking (or the booking it makes) is not as expected, or None."""
    if not kind_of(request).on_booking:
        made = [booking for code, booking in outcome.final.items() if code not in outcome.initial]
        if not made:
            return "no booking was made"
        wanted = outcome.expected[NEW]
        return None if wanted in made else booking_difference("the new booking", made[-1], wanted)
    code = request["booking"]
    return booking_difference(f"booking {code}", outcome.final.get(code), outcome.expected[code])


def as_expected(outcome: Outcome) -> str | None:
    return next((why for why in (request_state(r, outcome) for r in outcome.details["requests"]) if why), None)
