"""A person's task as a trajectory: the page's events as its steps, each timed by the server's clock,
the call line by line, who played, and /evaluate's answer, in the Trajectory every run writes.

A step's `seconds` is the time since the step before it, the first step's since the task began (the
host's clock; the embedded server shares it, a --server is taken to keep the same time). The call
starts with the customer's opening line, which the server never stores and so has no time."""
from __future__ import annotations

import datetime as dt

from scenarios.customer.simulator import TRANSFER
from scenarios.customer.transcript import ENDED, opening
from scenarios.steps import describe

from ..episode.play import SCENARIO_FIELDS, SCENARIO_FIELDS_IF_ANY
from ..episode.spec import EpisodeSpec
from ..episode.trajectory import Trajectory

END_DETAIL = {ENDED: "the person ended the call", TRANSFER: "the person transferred the call to a supervisor"}


def call_ending(activity: dict) -> str | None:
    """How the call of a scenario's activity ended (transcript.ENDED or TRANSFER); None while it is open."""
    return next((line["role"] for line in activity["call"] if line["role"] in END_DETAIL), None)


def task_trajectory(spec: EpisodeSpec, settings: dict, scenario: dict, metrics: dict, activity: dict,
                    started: dt.datetime, seconds: float, person: dict) -> Trajectory:
    """The finished task `spec`, begun at `started` (UTC) and played for `seconds`: `scenario` is the
    operator's answer (with its gold steps), `metrics` /evaluate's after the call, `activity` the
    server's events and call with their times (GET /scenario-activity)."""
    steps = timed_steps(activity["events"], started)
    kept = {**{key: scenario.get(key) for key in SCENARIO_FIELDS},
            **{key: scenario[key] for key in SCENARIO_FIELDS_IF_ANY if key in scenario}}
    ended = call_ending(activity) or ENDED
    return Trajectory(
        spec.method, spec.shots, spec.label, spec.task, spec.seed, spec.trial,
        observations=[],  # a person reads the page itself: no observation mode
        settings=settings, complete=True, scenario=kept, steps=steps, metrics=metrics,
        agent_actions=len(steps), end={"cause": "stop", "detail": END_DETAIL[ended]},
        started=started.isoformat(timespec="milliseconds"), seconds=round(seconds, 3), person=person,
        call=[*[{**line, "received": None} for line in opening(scenario)],
              *[line for line in activity["call"] if line["role"] != ENDED]])


def timed_steps(events: list[dict], started: dt.datetime) -> list[dict]:
    """One step per page event, with the event, the time the server received it and the seconds since
    the step before (the first: since `started`); an event without a time takes none."""
    steps, before = [], started
    for event in events:
        received = dt.datetime.fromisoformat(event["received"]) if event.get("received") else None
        seconds = round(max(0.0, (received - before).total_seconds()), 3) if received else None
        steps.append({"observation": "", "url": "", "reason": "", "action": describe(event),
                      "event": {key: event[key] for key in ("action", "target", "value")},
                      "received": event.get("received"), "seconds": seconds, "error": None, "metrics": {}})
        before = received or before
    return steps

