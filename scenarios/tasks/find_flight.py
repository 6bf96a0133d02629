"""TASK_FIND_FLIGHT: search one-way or return flights on a route."""
from __future__ import annotations

from .. import steps
from ..sampling import Draw, flight_details
from .base import Outcome, Sample, Task, clicks, fill_values, unchanged, values_differ

DEFAULTS = {"trip-type": "return"}  # the search form starts on a return trip

INSTRUCTIONS = (
    "Find {trip} flights from {origin} to {destination}, {dates}.",
    "Search for a {trip} trip from {origin} to {destination} {dates}.",
)

CONVERSATIONS = (
    (("CUS", "Hello, what flights do you have from {origin} to {destination}?"),
     ("REP", "I can check that for you. Which dates?"),
     ("CUS", "A {trip} trip, {dates}."),
     ("REP", "One moment while I search.")),
    (("CUS", "I'm planning a {trip} trip {dates}, from {origin} to {destination}. Can you look up the flights?"),
     ("REP", "Sure, let me search that for you.")),
    (("REP", "Thanks for calling, how can I help?"),
     ("CUS", "I'd like to see flights from {origin} to {destination}."),
     ("REP", "Is that one way or return, and when?"),
     ("CUS", "{trip}, {dates}."),
     ("REP", "Searching now.")),
)


def sample(draw: Draw) -> Sample:
    return Sample({"flight": flight_details(draw.trip(draw.round_trip()))})


def gold(details: dict) -> list[dict]:
    return steps.flight_search(details["flight"])


def searched_as_asked(outcome: Outcome) -> str | None:
    """The last search made is the one asked for."""
    searches = clicks(outcome.events, "search-submit")
    if not searches:
        return "no flight search was made"
    wanted = fill_values(gold(outcome.details))
    wanted.setdefault("trip-type", DEFAULTS["trip-type"])
    reason = values_differ(outcome.events, searches[-1], wanted, DEFAULTS)
    return f"the last flight search was not the one asked for: {reason}" if reason else None


TASK = Task(
    name="TASK_FIND_FLIGHT",
    sample=sample,
    gold=gold,
    expect=unchanged,
    goal=searched_as_asked,
    instructions=INSTRUCTIONS,
    conversations=CONVERSATIONS,
)
