"""The API's blueprint and what its route modules share. They import it from here rather than from
the package, which imports them to register their routes: no import circle."""
from __future__ import annotations

from flask import Blueprint, current_app

from ..services.dates import Calendar

api = Blueprint("api", __name__, url_prefix="/api")


def calendar() -> Calendar:
    return current_app.extensions["calendar"]


def world_seed() -> int:
    return current_app.config["DATA_SEED"]
