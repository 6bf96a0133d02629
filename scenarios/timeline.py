"""An episode's scores after each of its steps, from what the server recorded, asked once at the end
(GET /evaluate?timeline=...), so that a driver makes no request per step.

A step on the page ends with the events it recorded. The scores after it are the evaluation of the
events so far, of the API calls answered before the next event (a step's calls follow its events:
the page delivers its events before it calls the API, and each call keeps how many events came
before it) and of the bookings as the last write among those calls left them (a write that
succeeded keeps the state it left). A driver notes how many events the page had recorded after each
step (its marks) and gets one entry per mark, each what /evaluate would have answered right then.

A scenario with a customer on the line also counts its call: each mark is `events:lines`, the
page's events and the rows the call had stored after the step (its lines and an end mark: the
`lines` every answer of the call's routes gives), and its entries add `lines` and, for a call of
several requests, each request's `kind` and `ok`.
"""
from __future__ import annotations

from typing import NamedTuple

from crm_app.services.errors import InvalidInput
from crm_app.services.numbers import whole_number, wrong_number

from . import evaluator
from .card_data import Protect
from .customer.transcript import call_lines
from .customer.variants import PLAIN, CustomerVariant
from .tasks.base import Task

STEP_SCORES = ("success", "task_progress", "num_actions", "matched")
MAX_MARKS = 1000
MARKS = f"'all' or at most {MAX_MARKS} marks separated by commas, each an event count or events:lines"
MAX_COUNT = 2**31 - 1  # more events than a scenario can hold


class Mark(NamedTuple):
    events: int
    lines: int | None = None  # the rows the call had stored; None: a scenario without a call


class Call(NamedTuple):
    """What a timeline of a scenario with a customer on the line reads of its call."""
    told: dict  # what the scenario tells (its conversation's opening line)
    rows: list[dict]  # transcript.stored_rows
    caller: CustomerVariant = PLAIN


def marks_from(text: str) -> list[Mark] | None:
    """?timeline=: "all", or marks separated by commas ("0,2,2,5"; "0:0,2:0,2:2" for a call); None
    when not asked."""
    text = text.strip()
    if not text:
        return None
    if text == "all":
        return []
    parts = text.split(",")
    if len(parts) > MAX_MARKS:
        raise wrong_number("timeline", MARKS, text)
    return [_mark(part) for part in parts]


def _mark(text: str) -> Mark:
    events, colon, lines = text.partition(":")
    return Mark(whole_number(events.strip(), "timeline", MAX_COUNT, MARKS),
                whole_number(lines.strip(), "timeline", MAX_COUNT, MARKS) if colon else None)


def timeline(task: Task, details: dict, events: list[dict], calls: list[dict], initial: dict, final: dict,
             marks: list[Mark], protect: Protect, modality: str | None = None, call: Call | None = None) -> list[dict]:
    """The scores after each mark's events and, on a call, its lines (every prefix of the events for
    no marks, where there is no call). `calls` carry their `events_before` and, after a write that
    succeeded, `state_after`."""
    _check(marks, len(events), call)
    entries = []
    for mark in marks or [Mark(count) for count in range(len(events) + 1)]:
        answered = [api_call for api_call in calls if api_call["events_before"] <= mark.events]
        state = final if len(answered) == len(calls) else _state_after(answered, initial)
        said = call_lines(call.told, call.rows[:mark.lines]) if call else ()
        scores = evaluator.evaluate(task, details, events[:mark.events], initial, state, answered, protect, modality,
                                    said, call.caller if call else PLAIN)
        entries.append(_entry(mark, scores))
    return entries


def _check(marks: list[Mark], events: int, call: Call | None) -> None:
    if call and not marks:
        raise InvalidInput("a scenario with a customer on the line takes its timeline as marks events:lines "
                           "(the page's events and the call's lines after each step), not 'all'")
    if call and any(mark.lines is None for mark in marks):
        raise InvalidInput("a scenario with a customer on the line needs each timeline mark as events:lines")
    if not call and any(mark.lines is not None for mark in marks):
        raise InvalidInput("a timeline mark events:lines is for a scenario with a customer on the line")
    if any(mark.events > events for mark in marks):
        raise InvalidInput(f"the scenario has recorded {events} events; a timeline mark cannot exceed that")
    if call and any(mark.lines > len(call.rows) for mark in marks):
        raise InvalidInput(f"the call has stored {len(call.rows)} lines; a timeline mark cannot exceed that")


def _entry(mark: Mark, scores: dict) -> dict:
    entry = {"events": mark.events, **({"lines": mark.lines} if mark.lines is not None else {}),
             **{key: scores[key] for key in STEP_SCORES}}
    if scores.get("requests") is not None:
        entry["requests"] = [{"kind": request["kind"], "ok": request["ok"]} for request in scores["requests"]]
    return entry


def _state_after(calls: list[dict], initial: dict) -> dict:
    written = [call["state_after"] for call in calls if call.get("state_after") is not None]
    return written[-1] if written else initial
