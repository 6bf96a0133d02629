"""Recording the JSON API calls answered inside a scenario (what `calls.py` says to record).

Two hooks on every request: before it, a scenario that already holds its limit of recorded calls
gets a 429 for a recorded operation; after it, the call is stored with its answer's status. A
request for an unknown scenario, or one that does not name a scenario, is not recorded.
"""
from __future__ import annotations

from flask import Blueprint, current_app, g, request
from sqlalchemy import select

from crm_app.db import card_hasher, get_session
from crm_app.memo import memo_for
from crm_app.request_guard import checked_body
from crm_app.models import Flight
from crm_app.services.numbers import is_row_id
from crm_app.scope import SCENARIO_ID, requested_scenario_id
from crm_app.services.errors import InvalidInput

from . import store
from .calls import WRITES, call_params, operation_of


FLIGHTS_NAMED = 50_000  # flights each server process remembers by id (a flight never changes)


def attach(blueprint: Blueprint) -> None:
    blueprint.before_app_request(_refuse_past_limit)
    blueprint.after_app_request(_record)


def _recorded() -> tuple[str, str] | None:
    """(operation, scenario id) when the request is a recorded operation inside a scenario."""
    operation = operation_of(request.method, request.url_rule.rule if request.url_rule else None)
    try:
        scenario_id = requested_scenario_id() if operation else None
    except InvalidInput:  # an empty id: the route itself answers the 400
        return None
    if not scenario_id or not SCENARIO_ID.match(scenario_id):
        return None
    return operation, scenario_id


def _refuse_past_limit() -> None:
    recorded = _recorded()
    if recorded:
        store.check_call_room(get_session(), recorded[1], current_app.config["MAX_API_CALLS"])
        g.recorded_call = recorded  # only once the check passed: a refused call is not recorded


def _record(response):
    """Store the call with its answer's status. The parameters come from what the route read (the
    body it parsed and checked; none when it refused the body), never from the raw request again;
    and nothing that goes wrong here changes the answer: it is logged, and the call goes unrecorded."""
    recorded = g.pop("recorded_call", None)
    if not recorded:
        return response
    operation, scenario_id = recorded
    try:
        session = get_session()
        params = call_params(operation, request.args, checked_body(), request.view_args or {},
                             card_hasher(session), lambda flight_id: _flight_named(session, flight_id))
        wrote = operation in WRITES and response.status_code < 300
        state = store.state_now(store.World.of(current_app, session), scenario_id) if wrote else None
        store.record_call(session, scenario_id, operation, params, response.status_code, state)
    except Exception:  # noqa: BLE001 (the answer stands whatever recording meets)
        current_app.logger.exception("Recording the %s call of scenario %s failed", operation, scenario_id)
    return response


def _flight_named(session, flight_id) -> dict | None:
    """The flight an id names, as its number and date; None for anything that is not one."""
    if not is_row_id(flight_id):
        return None

    def load():
        row = session.execute(select(Flight.number, Flight.departure_date).where(Flight.id == flight_id)).first()
        return {"number": row.number, "date": row.departure_date.isoformat()} if row else None

    named = memo_for("flight names", FLIGHTS_NAMED).get(flight_id, load)
    return dict(named) if named else None  # a copy: the recorded call's params are its own
