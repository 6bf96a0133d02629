"""The single page: one HTML shell that the JS turns into every screen."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from .db import get_session
from .scope import requested_scenario_id
from .services.fares import FARES
from .services.flights import airports_by_state
from .services.numbers import ascii_number
from .services.validation import EARLIEST_BIRTH
from .suite_look import current_look, current_variant
from .ui_variants import VARIANTS, PageVocabulary
from .ui_variants.names import renamed_stylesheet

web = Blueprint("web", __name__)
POLICY_MODULES = ("call.js", "markdown.js", "screens/bookingsearch.js", "screens/policy.js")  # the airline-policy look's own
KNOWLEDGE_MODULES = ("screens/kb.js",)  # the knowledge-base look's own
VARIANT_MODULES = ("vocabulary.js",)  # what only the UI variants other than 0 need


@web.get("/")
def index():
    calendar = current_app.extensions["calendar"]
    look, variant = current_look(), current_variant()
    vocabulary = PageVocabulary(variant)
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
        c=vocabulary.classes,
        stylesheet=(url_for("web.variant_stylesheet", number=variant.number) if variant.number
                    else url_for("static", filename="style.css")),
        ui_page=vocabulary.for_scripts,
        airport_groups=airports_by_state(get_session()) if variant.airports == "grouped" else (),
        modules=_page_modules(current_app.static_folder, look, bool(variant.number)),
        upgrade_fares=FARES[1:],  # what a booking's fare may be raised to, lowest first (the hard look)
    )


@web.get("/ui-variant/<number>/style.css")
def variant_stylesheet(number: str):
    """static/style.css for a UI variant: its class selectors renamed as the variant's page names them."""
    variant = ascii_number(number, len(VARIANTS) - 1)  # Flask's int converter would also take '٣'
    if not variant:
        abort(404)
    response = Response(_stylesheet(current_app.static_folder, variant), mimetype="text/css")
    response.cache_control.public, response.cache_control.max_age = True, 3600
    return response


@lru_cache(maxsize=len(VARIANTS))
def _stylesheet(folder: str, number: int) -> str:
    return renamed_stylesheet((Path(folder) / "style.css").read_text(encoding="utf-8"), number)


def page_url(query: str = "") -> str:
    """The page's address as a visitor opens it: PUBLIC_URL (--public-url / CRM_PUBLIC_URL) when
    set, else the scheme and host the request came to (its Host header)."""
    return (current_app.config["PUBLIC_URL"] or request.host_url) + query


def _page_modules(folder: str, look, ui_variant: bool) -> tuple[str, ...]:
    """The modules to preload: all but those of a look or a variant the page is not in (they are
    still imported, and do nothing there), so that the pages of before stay byte for byte as they were."""
    left_out = ((() if look.airline_policy else POLICY_MODULES) + (() if look.knowledge_base else KNOWLEDGE_MODULES)
                + (() if ui_variant else VARIANT_MODULES))
    return tuple(module for module in _static_modules(folder) if module not in left_out)


@lru_cache(maxsize=4)
def _static_modules(folder: str) -> tuple[str, ...]:
    """Every JS module of the page, so the browser can fetch them all at once (modulepreload)
    instead of one import level after another."""
    root = Path(folder)
    return tuple(sorted(path.relative_to(root).as_posix() for path in root.rglob("*.js")))
