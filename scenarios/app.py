"""The AirlineCRM app as it is served: the CRM (crm_app) with the scenario backend attached.

crm_app knows nothing of scenarios (tests/test_layers.py keeps it so); the backend attaches itself
through the extension hook of crm_app's factory. This module is where the two meet, so whoever
serves the product (run.py, the tests, agents, benchmarks, task packages) builds the app with
`create_app` or `embedded_server` here instead of repeating the attachment.
"""
from __future__ import annotations

from flask import Flask

import crm_app
from crm_app import server
from crm_app.api.config import CUSTOMER_VARIANTS
from crm_app.openapi import add_part
from crm_app.services.errors import InvalidInput
from crm_app.suite_look import register_looks

from .customer.llm_customer import CUSTOMER, customer_from_config
from .customer.variants import variants_json as customer_variants_json
from .openapi import API_PART
from .routes import scenario_routes
from .suites import SUITES, suite_named


def create_app(config: dict | None = None) -> Flask:
    """The full app: the CRM's factory with the scenario backend as its extension."""
    return crm_app.create_app(config, extensions=(init_app,))


def embedded_server(database_url: str | None = None, settings: dict | None = None):
    """A background server of the full app (crm_app.server.embedded_server), on the given database or
    a temporary SQLite file."""
    return server.embedded_server(database_url, settings, app_factory=create_app)


def init_app(app: Flask) -> None:
    """Attach the scenario backend: its routes and their request hooks, their part of the OpenAPI
    document, and what the page needs to know of the suites."""
    _check_suite(app)
    register_looks(app, {name: suite.look for name, suite in SUITES.items()})
    app.extensions[CUSTOMER] = customer_from_config(app.config)
    app.extensions[CUSTOMER_VARIANTS] = customer_variants_json()
    app.register_blueprint(scenario_routes)
    add_part(app, API_PART)


def _check_suite(app: Flask) -> None:
    """An unknown SUITE setting stops the app at start, naming the choices."""
    try:
        app.config["SUITE"] = suite_named(app.config["SUITE"]).name
    except InvalidInput as error:
        raise ValueError(f"SUITE setting: {error}") from None
