"""The single page: one HTML shell that the JS turns into every screen."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template

from .scope import requested_scenario_id

web = Blueprint("web", __name__)


@web.get("/")
def index():
    calendar = current_app.extensions["calendar"]
    return render_template(
        "index.html",
        today=calendar.today.isoformat(),
        first_date=calendar.first_date.isoformat(),
        last_date=calendar.last_date.isoformat(),
        scenario=requested_scenario_id(),
    )
