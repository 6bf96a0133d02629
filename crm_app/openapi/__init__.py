"""The OpenAPI 3.1 document of every route, served at GET /openapi.json.

It is the one description of the HTTP interface: tests check that it lists exactly the routes
the app registers, and the fuzz test (tests/api/test_fuzz.py) sends it thousands of generated
requests and checks every answer against it. Model-facing tool definitions can be generated from
the operations' ids, descriptions and parameter schemas.

The CRM describes its own routes; an extension that adds routes (the scenario backend) adds their
description too, as an ApiPart (add_part), and the document lists it between the CRM's operations
and the page's.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from flask import Blueprint, Flask, current_app

from ..suite_look import suite_names
from ..version import VERSION
from .paths import PAGE_PATHS, PARAMETERS, crm_paths
from .schemas import SCHEMAS

openapi = Blueprint("openapi", __name__)
PARTS = "openapi parts"  # app.extensions: the ApiParts its extensions added, in order
DOCUMENT = "openapi document"  # app.extensions: the document, once made

DESCRIPTION = """A mock airline call-center CRM: search flights, book, find, cancel and change bookings,
and the scenario backend that scores agents working it.

Datasets: without a scenario every call acts on a shared sandbox; with `?scenario=<id>` or the
`X-Scenario-Id` header it acts on that scenario's own data only (given but empty is refused).

Errors: every 4xx answer is `{"error": "<message>", "fields": {"<field>": "<message>"}}`, with
`fields` only when particular fields are wrong. Request bodies are JSON objects of at most 64 KB
(413 above). Writes (book, cancel, change passenger, change flights) accept an `Idempotency-Key`
header and happen once per key."""


CRM_TAG = {"name": "crm", "description": "The CRM's JSON API: what the page does, any client can do"}
PAGE_TAG = {"name": "page", "description": "The single page, its files, and this document"}


@dataclass(frozen=True)
class ApiPart:
    """The description of the routes an extension adds: their tag, their operations by path, and
    the parameters and schemas they refer to (by $ref) besides the CRM's."""

    tag: dict
    paths: dict
    parameters: dict = field(default_factory=dict)
    schemas: dict = field(default_factory=dict)


def add_part(app: Flask, part: ApiPart) -> None:
    """Have the app's document describe an extension's routes (from its init_app)."""
    app.extensions.setdefault(PARTS, []).append(part)
    app.extensions.pop(DOCUMENT, None)


def document(parts: Iterable[ApiPart] = (), suites: Iterable[str] = ()) -> dict:
    """The document of the CRM's routes and of the given parts; `suites` are the values /api/config
    may answer as `suite`."""
    parts = tuple(parts)
    return {
        "openapi": "3.1.0",
        "info": {"title": "AirlineCRM", "version": VERSION, "description": DESCRIPTION},
        "tags": [CRM_TAG, *(part.tag for part in parts), PAGE_TAG],
        "paths": _joined(crm_paths(list(suites)), *(part.paths for part in parts), PAGE_PATHS),
        "components": {"schemas": _joined(SCHEMAS, *(part.schemas for part in parts)),
                       "parameters": _joined(PARAMETERS, *(part.parameters for part in parts))},
    }


def app_document(app: Flask) -> dict:
    """The document of this app's routes: made once, on first use, when its extensions have added
    their parts."""
    if DOCUMENT not in app.extensions:
        app.extensions[DOCUMENT] = document(app.extensions.get(PARTS, ()), suite_names(app))
    return app.extensions[DOCUMENT]


def _joined(*mappings: dict) -> dict:
    """The mappings in one, in order; a name given twice is a mistake, not an override."""
    joined = {}
    for mapping in mappings:
        repeated = joined.keys() & mapping.keys()
        if repeated:
            raise ValueError(f"OpenAPI names described twice: {', '.join(sorted(repeated))}")
        joined.update(mapping)
    return joined


@openapi.get("/openapi.json")
def openapi_json():
    return app_document(current_app)
