from __future__ import annotations

from flask import request

from ..db import get_session
from ..services.flights import find_airports
from .blueprint import api
from .views import airport_json


@api.get("/airports")
def airports():
    found = find_airports(get_session(), request.args.get("q", ""))
    return {"airports": [airport_json(airport) for airport in found]}
