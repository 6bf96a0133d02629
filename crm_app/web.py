"""The single page: one HTML shell that the JS turns into every screen."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from flask import Blueprint, current_app, render_template, request

from .scope import requested_scenario_id
from .services.validation import EARLIEST_BIRTH
from .suite_look import current_look, current_variant
from .ui_variants import page_vocabulary

web = Blueprint("web", __name__)
POLICY_MODULES = ("markdown.js", "screens/bookingsearch.js", "screens/policy.js")  # the airline-policy look's own


@web.get("/")
def index():
    calendar = current_app.extensions["calendar"]
    look, variant = current_look(), current_variant()
    vocabulary = page_vocabulary(variant)
    return render_template(
        "index.html",
        today=calendar.today.isoformat(),
        first_date=calendar.first_date.isoformat(),
        last_date=calendar.last_date.isoformat(),
        earliest_birth_date=EARLIEST_BIRTH.isoformat(),
        scenario=requested_scenario_id(),
        look=look,
        variant=variant,
        choices=variant.choices or look.passenger_choices,
        w=vocabulary.words,
        n=vocabulary.namer,
        ui_page=vocabulary.for_scripts,
        modules=_page_modules(current_app.static_folder, look.airline_policy),
    )


def page_url(query: str = "") -> str:
    """The page's address as a visitor opens it: PUBLIC_URL (--public-url / CRM_PUBLIC_URL) when
    set, else the scheme and host the request came to (its Host header)."""
    return (current_app.config["PUBLIC_URL"] or request.host_url) + query


def _page_modules(folder: str, airline_policy: bool) -> tuple[str, ...]:
    """The modules to preload: without the airline policy, all but the screens only it shows (they
    are still imported, and do nothing there), so that those pages stay as they were."""
    modules = _static_modules(folder)
    return modules if airline_policy else tuple(m for m in modules if m not in POLICY_MODULES)


@lru_cache(maxsize=4)
def _static_modules(folder: str) -> tuple[str, ...]:
    """Every JS module of the page, so the browser can fetch them all at once (modulepreload)
    instead of one import level after another."""
    root = Path(folder)
    return tuple(sorted(path.relative_to(root).as_posix() for path in root.rglob("*.js")))
