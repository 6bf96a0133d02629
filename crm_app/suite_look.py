"""How the CRM looks in each scenario suite: the scenario backend, which defines the suites,
registers one SuiteLook per suite (scenarios/app.py); a request gets its scenario's suite's look,
or the server's suite's (SUITE) for the sandbox. Without a backend the CRM has the plain look."""
from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, current_app

from .db import get_session
from .scope import scenario_from_request
from .services.errors import DomainError
from .ui_variants import UiVariant, variant

LOOKS = "suite looks"  # app.extensions key: suite name -> SuiteLook


@dataclass(frozen=True)
class SuiteLook:
    # How the passenger form shows Title and Gender: "select", or "radio" (labelled radio buttons)
    passenger_choices: str = "select"
    # Fare families, the booking's policy terms, the Policy page and the booking search by name: the
    # `hard` suite's CRM. Without them page and API answers are those of the papers' CRM.
    airline_policy: bool = False
    # The Knowledge base screen in place of the Policy page, and the agents' knowledge-base tools: the
    # `expert` suite's CRM (issue 50), whose policy lives in articles (services/knowledge_base.py).
    knowledge_base: bool = False


PLAIN = SuiteLook()


def register_looks(app: Flask, looks: dict[str, SuiteLook]) -> None:
    app.extensions[LOOKS] = dict(looks)


def suite_names(app: Flask) -> list[str]:
    """The suites the app serves, as its scenario backend registered them; none without one."""
    return list(app.extensions.get(LOOKS, {}))


def current_look() -> SuiteLook:
    """The look of the request's scenario's suite; the server's suite for the sandbox or a scenario it
    does not know (the route itself then says so)."""
    found = _scenario()
    suite = found.suite if found else current_app.config["SUITE"]
    return current_app.extensions.get(LOOKS, {}).get(suite, PLAIN)


def current_variant() -> UiVariant:
    """The UI variant of the request's scenario (crm_app/ui_variants.py); 0 for the sandbox."""
    found = _scenario()
    return variant(found.ui_variant if found else 0)


def _scenario():
    try:
        return scenario_from_request(get_session())
    except DomainError:
        return None
