"""Scenarios in the database: create one, put back its initial state, record and read its events.

A scenario's bookings live in the dataset named by its id, so the JSON API, scoped by
`?scenario=`, sees only them.
"""
from __future__ import annotations

import secrets
import string

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from crm_app.db import write_transaction
from crm_app.models import Booking, Event, IdempotencyKey, Scenario
from crm_app.services.bookings import new_booking
from crm_app.services.dates import Calendar

from . import evaluator
from .sampling import Draw
from .state import dataset_state
from .tasks import task_named
from .tasks.base import Sample, Task

ID_ALPHABET = string.ascii_lowercase + string.digits
ID_LENGTH = 20


class World:
    """What drawing a scenario depends on besides (task, seed): the session, clock and world seed."""

    def __init__(self, session: Session, calendar: Calendar, world_seed: int):
        self.session, self.calendar, self.world_seed = session, calendar, world_seed

    def draw(self, task: Task, seed: int) -> Draw:
        return Draw(self.session, self.calendar, self.world_seed, task.name, seed)


def describe(world: World, task: Task, seed: int) -> tuple[Sample, dict]:
    """The scenario of (task, seed) without storing anything but the flights it names."""
    draw = world.draw(task, seed)
    sample = task.sample(draw)
    text = {"instruction": task.instruction(draw, sample.details),
            "conversation": task.conversation(draw, sample.details)}
    return sample, text


def create_scenario(world: World, task: Task, seed: int) -> tuple[Scenario, dict]:
    """Store a new scenario and the bookings it starts with, in one transaction."""
    sample, text = describe(world, task, seed)
    scenario_id = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
    setup = _setup_bookings(world, scenario_id, sample)
    with write_transaction(world.session) as session:
        scenario = Scenario(id=scenario_id, task=task.name, seed=seed, details=sample.details,
                            created_on=world.calendar.today)
        session.add(scenario)
        session.add_all(setup)
    return scenario, text


def reset_scenario(world: World, scenario: Scenario) -> dict:
    """Delete what happened in the scenario and make its initial bookings again (same codes)."""
    sample, text = describe(world, task_named(scenario.task), scenario.seed)
    setup = _setup_bookings(world, scenario.id, sample)
    with write_transaction(world.session) as session:
        # The database cascades the delete to segments, passengers and payments.
        for statement in (delete(Booking).where(Booking.dataset == scenario.id),
                          delete(Event).where(Event.scenario_id == scenario.id),
                          delete(IdempotencyKey).where(IdempotencyKey.dataset == scenario.id)):
            session.execute(statement, execution_options={"synchronize_session": False})
        session.add_all(setup)
    return text


def _setup_bookings(world: World, dataset: str, sample: Sample) -> list[Booking]:
    return [
        new_booking(world.session, world.calendar, dataset, b.trip.outward.id,
                    b.trip.back.id if b.trip.back else None, b.passenger, b.card, code=b.code)
        for b in sample.setup
    ]


def record_event(session: Session, scenario_id: str, event: dict) -> tuple[int, bool]:
    """Store a cleaned event; (its number in the scenario, whether it is new). A repeat is not stored."""
    try:
        with write_transaction(session):
            if _find(session, scenario_id, event) is None:
                session.add(Event(scenario_id=scenario_id, **event))
                session.flush()
                return _number(session, scenario_id, event), True
    except IntegrityError:  # the same (page, seq) arrived twice at once; the other one won
        pass
    return _number(session, scenario_id, event), False


def _find(session: Session, scenario_id: str, event: dict) -> int | None:
    return session.scalar(select(Event.id).where(
        Event.scenario_id == scenario_id, Event.page == event["page"], Event.seq == event["seq"]))


def _number(session: Session, scenario_id: str, event: dict) -> int:
    """The event's position among the scenario's events, in arrival order."""
    own = _find(session, scenario_id, event)
    return session.scalar(select(func.count()).select_from(Event).where(
        Event.scenario_id == scenario_id, Event.id <= own))


def scenario_events(session: Session, scenario_id: str) -> list[dict]:
    rows = session.scalars(select(Event).where(Event.scenario_id == scenario_id).order_by(Event.id))
    return [{"action": e.action, "target": e.target, "value": e.value, "fields": e.fields} for e in rows]


def evaluate_scenario(world: World, scenario: Scenario) -> dict:
    """Score the scenario's recorded events against its gold steps and its current state."""
    task = task_named(scenario.task)
    sample = task.sample(world.draw(task, scenario.seed))
    final = dataset_state(world.session, scenario.id, sample.card_numbers())
    events = scenario_events(world.session, scenario.id)
    result = evaluator.evaluate(task, scenario.details, events, sample.initial_state(), final)
    return {"id": scenario.id, "scenario": task.name, **result}
