"""The OpenAPI 3.1 document of every route, served at GET /openapi.json.

It is the one description of the HTTP interface: tests check that it lists exactly the routes
the app registers, and the fuzz test (tests/api/test_fuzz.py) sends it thousands of generated
requests and checks every answer against it. Model-facing tool definitions can be generated from
the operations' ids, descriptions and parameter schemas.
"""
from __future__ import annotations

from functools import lru_cache

from flask import Blueprint

from .paths import PARAMETERS, PATHS
from .schemas import SCHEMAS

openapi = Blueprint("openapi", __name__)

DESCRIPTION = """A mock airline call-center CRM: search flights, book, find, cancel and change bookings,
and the scenario backend that scores agents working it.

Datasets: without a scenario every call acts on a shared sandbox; with `?scenario=<id>` or the
`X-Scenario-Id` header it acts on that scenario's own data only (given but empty is refused).

Errors: every 4xx answer is `{"error": "<message>", "fields": {"<field>": "<message>"}}`, with
`fields` only when particular fields are wrong. Request bodies are JSON objects of at most 64 KB
(413 above). Writes (book, cancel, change passenger, change flights) accept an `Idempotency-Key`
header and happen once per key."""


@lru_cache(maxsize=1)
def document() -> dict:
    return {
        "openapi": "3.1.0",
        "info": {"title": "AirlineCRM", "version": "1.0.0", "description": DESCRIPTION},
        "tags": [{"name": "crm", "description": "The CRM's JSON API: what the page does, any client can do"},
                 {"name": "scenarios", "description": "Generating, resetting and scoring scenarios"},
                 {"name": "page", "description": "The single page, its files, and this document"}],
        "paths": PATHS,
        "components": {"schemas": SCHEMAS, "parameters": PARAMETERS},
    }


@openapi.get("/openapi.json")
def openapi_json():
    return document()
