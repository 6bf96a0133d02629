"""TASK_FIND_FLIGHT: search one-way or return flights on a route."""
from __future__ import annotations

from .. import call_steps, steps
from ..sampling import Draw, flight_details
from .base import Outcome, Sample, Task, unchanged

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


def gold_calls(details: dict) -> list[dict]:
    return [call_steps.search(details["flight"])]


def searched_as_asked(outcome: Outcome) -> str | None:
    """The last flight search the server answered in the scenario is the one asked for: those are
    the results on screen. No `return` date asked for means a one-way search."""
    search = outcome.last_call("search_flights")
    if search is None:
        return "no flight search was made"
    if search["status"] != 200:
        return f"the last flight search was refused (status {search['status']})"
    for key, value in call_steps.search(outcome.details["flight"])["params"].items():
        got = search["params"].get(key)
        if got != value:
            return f"the last flight search was not the one asked for: {key} was {_shown(got)}, expected {_shown(value)}"
    return None


def _shown(value) -> str:
    return "none" if value is None else repr(value)


TASK = Task(
    name="TASK_FIND_FLIGHT",
    sample=sample,
    gold=gold,
    gold_calls=gold_calls,
    expect=unchanged,
    goal=searched_as_asked,
    instructions=INSTRUCTIONS,
    conversations=CONVERSATIONS,
)
