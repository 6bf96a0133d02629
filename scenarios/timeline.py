"""An episode's scores after each of its steps, from what the server recorded, asked once at the end
(GET /evaluate?timeline=...), so that a driver makes no request per step.

A step on the page ends with the events it recorded. The scores after it are the evaluation of the
events so far, of the API calls answered before the next event (a step's calls follow its events:
the page delivers its events before it calls the API, and each call keeps how many events came
before it) and of the bookings as the last write among those calls left them (a write that
succeeded keeps the state it left). A driver notes how many events the page had recorded after each
step (its marks) and gets one entry per mark, each what /evaluate would have answered right then.

A scenario with a customer on the line has none: the call is not ordered against the page's events.
"""
from __future__ import annotations

from crm_app.services.errors import InvalidInput
from crm_app.services.numbers import whole_number, wrong_number

from . import evaluator
from .card_data import Protect
from .tasks.base import Task

STEP_SCORES = ("success", "task_progress", "num_actions", "matched")
MAX_MARKS = 1000
MARKS = f"'all' or at most {MAX_MARKS} event counts separated by commas"
MAX_COUNT = 2**31 - 1  # more events than a scenario can hold


def marks_from(text: str) -> list[int] | None:
    """?timeline=: "all", or event counts separated by commas ("0,2,2,5"); None when not asked."""
    text = text.strip()
    if not text:
        return None
    if text == "all":
        return []
    parts = text.split(",")
    if len(parts) > MAX_MARKS:
        raise wrong_number("timeline", MARKS, text)
    return [whole_number(part.strip(), "timeline", MAX_COUNT, MARKS) for part in parts]


def timeline(task: Task, details: dict, events: list[dict], calls: list[dict], initial: dict, final: dict,
             marks: list[int], protect: Protect, modality: str | None = None) -> list[dict]:
    """The scores after each mark's events (every prefix for no marks). `calls` carry their
    `events_before` and, after a write that succeeded, `state_after`."""
    if "expected" in details:
        raise InvalidInput("a scenario with a customer on the line has no timeline: ask /evaluate after each step")
    if any(mark > len(events) for mark in marks):
        raise InvalidInput(f"the scenario has recorded {len(events)} events; a timeline mark cannot exceed that")
    entries = []
    for mark in marks or range(len(events) + 1):
        answered = [call for call in calls if call["events_before"] <= mark]
        state = final if len(answered) == len(calls) else _state_after(answered, initial)
        scores = evaluator.evaluate(task, details, events[:mark], initial, state, answered, protect, modality)
        entries.append({"events": mark, **{key: scores[key] for key in STEP_SCORES}})
    return entries


def _state_after(calls: list[dict], initial: dict) -> dict:
    written = [call["state_after"] for call in calls if call.get("state_after") is not None]
    return written[-1] if written else initial
