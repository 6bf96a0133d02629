"""Scenarios in the database: create one, put back its initial state, record and read its events
and the API calls answered inside it.

A scenario's bookings live in the dataset named by its id, so the JSON API, scoped by
`?scenario=`, sees only them. The scenarios table keeps the details without card data
(`card_data.details_at_rest`); the full details are drawn again from (task, seed) when needed.
"""
from __future__ import annotations

import json
import pickle
import secrets
import string

from sqlalchemy import Text, bindparam, cast, delete, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from crm_app.db import card_hasher, dataset_lock, write_transaction
from crm_app.memo import memo_for
from crm_app.models import (ApiCall, Booking, CustomerMessage, Event, FlightDisruption, IdempotencyKey, KbDocument,
                            Scenario)
from crm_app.scope import ScenarioRef, find_scenario
from crm_app.services.bookings import new_booking
from crm_app.services.dates import Calendar
from crm_app.services.disruptions import disruption_row
from crm_app.services.knowledge_base import bulletin_row
from . import evaluator
from .card_data import details_at_rest, protector
from .customer.transcript import call_lines, stored_rows
from .customer.variants import customer_variant
from .customer.variants.unprepared import booked_on as booked_day
from .limits import LimitReached
from .sampling import Draw
from .state import cards_by_number, cards_by_position, dataset_state
from .suites import Suite, suite_named
from .tasks import task_named
from .tasks.base import Sample, Task
from .timeline import Call, Mark, timeline

ID_ALPHABET = string.ascii_lowercase + string.digits
ID_LENGTH = 20
DRAWS_REMEMBERED = 2_000  # scenario draws each server process keeps (a study uses a few hundred)


class World:
    """What drawing a scenario depends on besides (suite, task, seed): the session, clock and world seed."""

    def __init__(self, session: Session, calendar: Calendar, world_seed: int):
        self.session, self.calendar, self.world_seed = session, calendar, world_seed

    @classmethod
    def of(cls, app, session: Session) -> World:
        """The world of a Flask app of the CRM (its calendar and data seed)."""
        return cls(session, app.extensions["calendar"], app.config["DATA_SEED"])

    def draw(self, task: Task, seed: int, suite: Suite) -> Draw:
        return Draw(self.session, self.calendar, self.world_seed, task.name, seed,
                    round_trips_only=suite.round_trips_only, flight_numbers=suite.flight_numbers)


def describe(world: World, task: Task, seed: int, suite: Suite) -> tuple[Sample, dict]:
    """The scenario of (suite, task, seed) without storing anything but the flights it names: the
    sample, and what the agent is told (instruction, conversation, details in full).

    A draw is a pure function of its key and of flights that never change, so each server process
    draws it once, not on every create, reset and evaluate; callers get their own copy to change
    (kept pickled: unpickling a copy is several times faster than a deep copy, on every /evaluate)."""
    key = (suite.name, task.name, seed, world.world_seed, world.calendar)
    drawn = memo_for("scenario draws", DRAWS_REMEMBERED).get(
        key, lambda: pickle.dumps(_draw(world, task, seed, suite), pickle.HIGHEST_PROTOCOL))
    return pickle.loads(drawn)


def _draw(world: World, task: Task, seed: int, suite: Suite) -> tuple[Sample, dict]:
    draw = world.draw(task, seed, suite)
    sample = task.sample(draw)
    told = {"instruction": task.instruction(draw, sample.details, suite.instruction_templates(task)),
            "conversation": task.conversation(draw, sample.details), "details": sample.details}
    return sample, told


def create_scenario(world: World, task: Task, seed: int, suite: Suite,
                    ui_variant: int | None = None, customer_variant: int | None = None) -> tuple[Scenario, dict]:
    """Store a new scenario (shown in UI variant `ui_variant`, its caller speaking as customer
    variant `customer_variant`; None: none was asked for, variant 0) and the bookings it starts
    with, in one transaction."""
    sample, told = describe(world, task, seed, suite)
    scenario_id = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
    setup = _setup_bookings(world, scenario_id, sample)
    with write_transaction(world.session) as session:
        scenario = Scenario(id=scenario_id, task=task.name, seed=seed, suite=suite.name, ui_variant=ui_variant or 0,
                            ui_variant_asked=ui_variant is not None, customer_variant=customer_variant or 0,
                            customer_variant_asked=customer_variant is not None,
                            details=details_at_rest(sample.details), created_on=world.calendar.today)
        session.add(scenario)
        session.add_all(setup)
        session.add_all(_setup_rows(scenario_id, sample))
    return scenario, told


def described(world: World, scenario: ScenarioRef) -> tuple[Sample, dict]:
    """describe() of a stored scenario: its sample and what it tells."""
    return describe(world, task_named(scenario.task), scenario.seed, suite_named(scenario.suite))


def told(world: World, scenario: ScenarioRef) -> dict:
    """What the scenario tells (instruction, conversation, details), drawn again from its (task, seed)."""
    return described(world, scenario)[1]


def caller_shown(scenario: ScenarioRef) -> dict:
    """The scenario's customer variant as its answers name it: whenever it was asked for (0 included)."""
    asked = scenario.customer_variant_asked or scenario.customer_variant
    return {"customer_variant": scenario.customer_variant} if asked else {}


def booked_on(world: World, scenario: ScenarioRef) -> str | None:
    """The ISO day the caller's own booking flies (a caller without its code at hand tells it instead)."""
    sample, told = described(world, scenario)
    return booked_day(told["details"], sample.initial_state())


def initial_state(world: World, scenario: ScenarioRef) -> dict:
    """The bookings the scenario starts from, as /evaluate reads a state."""
    return described(world, scenario)[0].initial_state()


def reset_scenario(world: World, scenario: ScenarioRef) -> dict:
    """Delete what happened in the scenario (bookings, events, API calls, the call with its customer)
    and make its initial bookings again (same codes)."""
    sample, told = described(world, scenario)
    setup = _setup_bookings(world, scenario.id, sample)
    with write_transaction(world.session, dataset_lock(scenario.id)) as session:
        # The database cascades the delete to segments, passengers and payments.
        for statement in (delete(Booking).where(Booking.dataset == scenario.id),
                          delete(FlightDisruption).where(FlightDisruption.dataset == scenario.id),
                          delete(KbDocument).where(KbDocument.dataset == scenario.id),
                          delete(Event).where(Event.scenario_id == scenario.id),
                          delete(ApiCall).where(ApiCall.scenario_id == scenario.id),
                          delete(IdempotencyKey).where(IdempotencyKey.dataset == scenario.id),
                          delete(CustomerMessage).where(CustomerMessage.scenario_id == scenario.id)):
            session.execute(statement, execution_options={"synchronize_session": False})
        session.add_all(setup)
        session.add_all(_setup_rows(scenario.id, sample))
    return told


def _setup_bookings(world: World, dataset: str, sample: Sample) -> list[Booking]:
    return [
        new_booking(world.session, world.calendar, dataset, b.trip.outward.id,
                    b.trip.back.id if b.trip.back else None, b.passenger, b.card, code=b.code, fare=b.fare,
                    booked_at=b.booked_at, notes=b.notes)
        for b in sample.setup
    ]


def _setup_rows(dataset: str, sample: Sample) -> list:
    """The scenario's own rows beside its bookings: the flights the airline disrupted, its bulletins."""
    return [*(disruption_row(dataset, d.flight.id, d.status, d.delay_minutes) for d in sample.disruptions),
            *(bulletin_row(dataset, bulletin) for bulletin in sample.bulletins)]


def record_event(session: Session, scenario_id: str, event: dict, limit: int) -> tuple[int, bool]:
    """Store a cleaned event; (its number in the scenario, whether it is new). A repeat is not
    stored; a new event past `limit` events raises LimitReached."""
    try:
        with write_transaction(session, dataset_lock(scenario_id)):
            if _find(session, scenario_id, event) is None:
                before = _check_room(session, Event, scenario_id, limit, "page events")
                # A plain INSERT, not the ORM's unit of work: this runs after every page event. Under
                # the scenario's lock the new event is its last: its number is the count before it + 1.
                session.connection().execute(_INSERT_EVENT, {"scenario_id": scenario_id, **event})
                return before + 1, True
    except IntegrityError:  # the same (page, seq) arrived twice at once; the other one won
        pass
    return _number(session, scenario_id, event), False


def _find(session: Session, scenario_id: str, event: dict) -> int | None:
    return session.connection().scalar(_FIND_EVENT, {"scenario_id": scenario_id, "page": event["page"],
                                                      "seq": event["seq"]})


def _number(session: Session, scenario_id: str, event: dict) -> int:
    """The event's position among the scenario's events, in arrival order."""
    own = _find(session, scenario_id, event)
    return session.scalar(select(func.count()).select_from(Event).where(
        Event.scenario_id == scenario_id, Event.id <= own))


def _rows_of_scenario(model):
    return select(func.count()).select_from(model).where(model.scenario_id == bindparam("scenario_id"))


# Built once: these run on every recorded request, and a statement reused keeps its compiled form.
_COUNT_ROWS = {Event: _rows_of_scenario(Event), ApiCall: _rows_of_scenario(ApiCall)}
_FIND_EVENT = select(Event.id).where(Event.scenario_id == bindparam("scenario_id"), Event.page == bindparam("page"),
                                     Event.seq == bindparam("seq"))
_INSERT_EVENT = insert(Event.__table__)
# The call's events_before is counted in its own INSERT (bound as `events_of`, the scenario's id).
_INSERT_CALL = insert(ApiCall.__table__).values(
    events_before=select(func.count()).select_from(Event).where(Event.scenario_id == bindparam("events_of"))
    .scalar_subquery())


def _check_room(session: Session, model, scenario_id: str, limit: int, what: str) -> int:
    """The scenario's rows of `model` so far; LimitReached when that is `limit` or more."""
    count = session.connection().scalar(_COUNT_ROWS[model], {"scenario_id": scenario_id})
    if count >= limit:
        raise LimitReached(f"This scenario has recorded {limit} {what}, as many as the server keeps for one "
                           "scenario; reset it with /reset-scenario to start over")
    return count


_EVENTS = (select(Event.action, Event.target, Event.value, cast(Event.fields, Text))
           .where(Event.scenario_id == bindparam("scenario_id")).order_by(Event.id))


def scenario_events(session: Session, scenario_id: str) -> list[dict]:
    # Plain rows on the connection (no ORM result handling), decoding only the snapshots that are
    # there: /evaluate reads thousands of events. The cast makes every database answer JSON text.
    rows = session.connection().execute(_EVENTS, {"scenario_id": scenario_id}).all()
    return [{"action": action, "target": target, "value": value,
             "fields": json.loads(fields) if fields and fields != "null" else None}
            for action, target, value, fields in rows]


def check_call_room(session: Session, scenario_id: str, limit: int) -> None:
    """Raise LimitReached when the scenario already holds `limit` recorded API calls.

    Checked before the request runs, not in the transaction that records it afterwards (holding a
    lock across the request would cost every request a round trip): requests racing in one scenario
    at the limit may each pass, so it can end with a few more, at most one per request in flight.
    The limit bounds what one scenario stores; it is not part of any task's rules."""
    _check_room(session, ApiCall, scenario_id, limit, "API calls")


def record_call(session: Session, scenario_id: str, operation: str, params: dict, status: int,
                state_after: dict | None = None) -> None:
    """Store the call with the number of events recorded before it (counted in the same INSERT)
    and, after a write, the state it left; unless the scenario does not exist (its id is then not a
    scenario's: the foreign key refuses it, which saves looking the scenario up on every request)."""
    try:
        with write_transaction(session):
            # A plain INSERT, not the ORM's unit of work: this runs after every recorded request.
            session.connection().execute(_INSERT_CALL, {"scenario_id": scenario_id, "events_of": scenario_id,
                                                         "operation": operation, "params": params, "status": status,
                                                         "state_after": state_after})
    except IntegrityError:
        pass


def state_now(world: World, scenario_id: str) -> dict | None:
    """The scenario's bookings as /evaluate reads them, its cards named by position
    (state.cards_by_position: the form kept at rest); None for an id that is no scenario's."""
    scenario = find_scenario(world.session, scenario_id)
    if scenario is None:
        return None
    numbers = described(world, scenario)[0].card_numbers()
    return cards_by_position(dataset_state(world.session, scenario.id, numbers), numbers)


_CALLS = {ordered: select(ApiCall.operation, ApiCall.params, ApiCall.status,
                          *((ApiCall.events_before, ApiCall.state_after) if ordered else ()))
          .where(ApiCall.scenario_id == bindparam("scenario_id")).order_by(ApiCall.id) for ordered in (False, True)}


def scenario_calls(session: Session, scenario_id: str, ordered: bool = False) -> list[dict]:
    """The API calls answered inside the scenario, in arrival order (see calls.py); `ordered` adds
    each call's `events_before` and `state_after` (timeline.py; scoring reads only the first three)."""
    rows = session.connection().execute(_CALLS[ordered], {"scenario_id": scenario_id})
    return [dict(zip(("operation", "params", "status", "events_before", "state_after"), row)) for row in rows]


def evaluate_scenario(world: World, scenario: ScenarioRef, modality: str | None = None,
                      marks: list[Mark] | None = None) -> dict:
    """Score the scenario's recorded events (or API calls: `modality`, see evaluator.py) against its
    gold steps (or gold calls) and its current state; with `marks`, also the scores after each of
    those numbers of events (and of the call's lines: `timeline`, timeline.py), from the same reads."""
    task = task_named(scenario.task)
    sample, told = described(world, scenario)
    numbers = sample.card_numbers()
    final = dataset_state(world.session, scenario.id, numbers)
    events = scenario_events(world.session, scenario.id)
    calls = scenario_calls(world.session, scenario.id, ordered=marks is not None)
    caller = customer_variant(scenario.customer_variant)
    call = Call(told, stored_rows(world.session, scenario.id), caller) if "expected" in sample.details else None
    protect = protector(card_hasher(world.session))
    result = evaluator.evaluate(task, sample.details, events, sample.initial_state(), final, calls, protect,
                                modality, call_lines(told, call.rows) if call else [], caller)
    answer = {"id": scenario.id, "scenario": task.name, **caller_shown(scenario), **result}
    if marks is not None:
        calls = [{**api_call, "state_after": api_call["state_after"] and cards_by_number(api_call["state_after"], numbers)}
                 for api_call in calls]
        answer["timeline"] = timeline(task, sample.details, events, calls, sample.initial_state(), final, marks,
                                      protect, modality, call)
    return answer
