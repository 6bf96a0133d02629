"""The single page: one HTML shell that the JS turns into every screen."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Flask, current_app, render_template, request

from .db import get_session
from .scope import requested_scenario_id, scenario_from_request
from .services.errors import DomainError
from .services.validation import EARLIEST_BIRTH

web = Blueprint("web", __name__)
# app.extensions: how each scenario suite shows the passenger form's Title and Gender ("select" or
# "radio"). The scenario backend, which defines the suites, fills it in from its init_app; its keys
# are the suites the app serves.
PASSENGER_CHOICES = "passenger choices"


@web.get("/")
def index():
    calendar = current_app.extensions["calendar"]
    return render_template(
        "index.html",
        today=calendar.today.isoformat(),
        first_date=calendar.first_date.isoformat(),
        last_date=calendar.last_date.isoformat(),
        earliest_birth_date=EARLIEST_BIRTH.isoformat(),
        scenario=requested_scenario_id(),
        choices=_passenger_choices(),
        modules=_static_modules(current_app.static_folder),
    )


def _passenger_choices() -> str:
    """Title and Gender as the page's scenario's suite shows them; the server's suite (SUITE) for the
    sandbox or a scenario it does not know (the page then says so)."""
    try:
        found = scenario_from_request(get_session())
    except DomainError:
        found = None
    suite = found.suite if found else current_app.config["SUITE"]
    return current_app.extensions.get(PASSENGER_CHOICES, {}).get(suite, "select")


def suite_names(app: Flask) -> list[str]:
    """The suites the app serves, as its scenario backend registered them; none without one."""
    return list(app.extensions.get(PASSENGER_CHOICES, {}))


def page_url(query: str = "") -> str:
    """The page's address as a visitor opens it: PUBLIC_URL (--public-url / CRM_PUBLIC_URL) when
    set, else the scheme and host the request came to (its Host header)."""
    return (current_app.config["PUBLIC_URL"] or request.host_url) + query


@lru_cache(maxsize=4)
def _static_modules(folder: str) -> tuple[str, ...]:
    """Every JS module of the page, so the browser can fetch them all at once (modulepreload)
    instead of one import level after another."""
    root = Path(folder)
    return tuple(sorted(path.relative_to(root).as_posix() for path in root.rglob("*.js")))
