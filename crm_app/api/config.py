from __future__ import annotations

from flask import current_app

from ..db import get_session
from ..scope import scenario_from_request
from ..services.validation import EARLIEST_BIRTH
from ..ui_variants import variants_json
from .blueprint import api, calendar

# app.extensions key: the callers a scenario may ask for (?customer_variant=), as the scenario backend
# registers them (id, name, description); none without one. Which one a scenario has is the
# operator's to know, so only the list is shown.
CUSTOMER_VARIANTS = "customer variants"


@api.get("/config")
def config():
    session = get_session()
    scenario = scenario_from_request(session)  # an unknown one is reported here, before the page relies on it
    cal = calendar()
    return {"today": cal.today.isoformat(), "first_date": cal.first_date.isoformat(),
            "last_date": cal.last_date.isoformat(), "earliest_birth_date": EARLIEST_BIRTH.isoformat(),
            "scenario": scenario.id if scenario else None, "suite": current_app.config["SUITE"],
            "scenario_suite": scenario.suite if scenario else None,
            "ui_variant": scenario.ui_variant if scenario else 0, "ui_variants": variants_json(),
            "customer_variants": current_app.extensions.get(CUSTOMER_VARIANTS, [])}
