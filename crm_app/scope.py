"""Which dataset a request acts on: a scenario named by ?scenario= / X-Scenario-Id, or the sandbox."""
from __future__ import annotations

import re
from dataclasses import dataclass

from flask import request
from sqlalchemy import select
from sqlalchemy.orm import Session

from .memo import memo_for
from .models import SANDBOX, Scenario
from .services.errors import InvalidInput, NotFound

SCENARIO_ID = re.compile(r"^[a-z0-9]{1,40}$")
KNOWN_SCENARIOS = 10_000  # scenarios each server process remembers (a few hundred bytes each)


@dataclass(frozen=True)
class ScenarioRef:
    """What a request needs of its scenario: the scenario's identity, which never changes (a
    scenario is never updated or deleted once made)."""

    id: str
    task: str
    seed: int
    suite: str
    ui_variant: int = 0
    ui_variant_asked: bool = False  # whether the request that made it named a variant (0 included)
    customer_variant: int = 0  # the caller's way of speaking (scenarios/customer/variants/)
    customer_variant_asked: bool = False


def find_scenario(session: Session, scenario_id: str) -> ScenarioRef | None:
    """The scenario of that id, asking the database only about ids this process has not seen."""
    def load():
        row = session.execute(select(Scenario.id, Scenario.task, Scenario.seed, Scenario.suite, Scenario.ui_variant,
                                     Scenario.ui_variant_asked, Scenario.customer_variant, Scenario.customer_variant_asked)
                              .where(Scenario.id == scenario_id)).first()
        return ScenarioRef(*row) if row else None

    return memo_for("scenarios", KNOWN_SCENARIOS).get(scenario_id, load)


def requested_scenario_id() -> str | None:
    """The scenario id of ?scenario= (or else the X-Scenario-Id header); None when neither is
    given. Given but empty is a mistake, not the sandbox: a 400."""
    if "scenario" in request.args:
        value = request.args["scenario"]
    elif "X-Scenario-Id" in request.headers:
        value = request.headers["X-Scenario-Id"]
    else:
        return None
    if not value.strip():
        raise InvalidInput("The scenario id is empty: give ?scenario=<id>, or leave it out to use the sandbox")
    return value.strip()


def scenario_from_request(session: Session, required: bool = False) -> ScenarioRef | None:
    """The scenario the request names; None for the sandbox unless one is `required`."""
    scenario_id = requested_scenario_id()
    if scenario_id is None:
        if required:
            raise InvalidInput("Missing scenario id: add ?scenario=<id>")
        return None
    if not SCENARIO_ID.match(scenario_id):
        raise InvalidInput(f"Malformed scenario id: {scenario_id[:60]}")
    scenario = find_scenario(session, scenario_id)
    if scenario is None:
        raise NotFound(f"Unknown scenario: {scenario_id}")
    return scenario


def current_dataset(session: Session) -> str:
    scenario = scenario_from_request(session)
    return scenario.id if scenario else SANDBOX


def booking_code_source(session: Session) -> str | None:
    """What the codes of bookings made now are drawn from: in a scenario its task and seed (with the
    count of its bookings, services/bookings.py), so that every replay of a scenario gives the same
    codes; None in the sandbox, where they are random."""
    scenario = scenario_from_request(session)
    return f"{scenario.task}:{scenario.seed}" if scenario else None
