"""TASK_FIND_FLIGHT: search one-way or return flights on a route."""
from __future__ import annotations

from .. import steps
from ..sampling import Draw, flight_details
from ..targets import normalize
from .base import Outcome, Sample, Task, last_click, unchanged, values_differ

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
    index = last_click(outcome.events, "search-submit")
    if index is None:
        return "no flight search was made"
    wanted = {step["target"]: step["value"] for step in gold(outcome.details) if step["action"] == "fill"}
    wanted.setdefault("trip-type", normalize("trip-type", "return"))
    reason = values_differ(outcome.events, index, wanted, {"trip-type": "return"})
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
