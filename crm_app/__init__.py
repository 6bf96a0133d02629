"""AirlineCRM: a mock airline call-center CRM (Flask app factory).

The CRM alone: the app as it is served, with its scenario backend, is made by scenarios/app.py.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import click
from flask import Flask

from . import cookieless, db, request_guard, security_headers
from .config import load_config
from .instance_secrets import load_secrets
from .models import Base
from .services.dates import Calendar


def create_app(config: dict | None = None, extensions: Iterable[Callable[[Flask], None]] = ()) -> Flask:
    """The CRM app. `extensions` are the init_app functions of what builds on the CRM (the scenario
    backend: scenarios/app.py); each runs once the CRM's own routes are registered and before its
    OpenAPI route and request hooks are: an extension's before-request hooks then run before the
    request guard, and its after-request hooks see the answer with its security headers."""
    settings = load_config(config)
    instance = settings["INSTANCE_PATH"]
    pages = Path(settings["PAGE_FOLDER"])
    app = Flask(__name__, template_folder=str(pages / "templates"), static_folder=str(pages / "static"),
                instance_path=str(Path(instance).resolve()) if instance else None)
    load_secrets(settings, app.instance_path)
    app.config.update(settings)
    app.json.sort_keys = False
    app.extensions["calendar"] = Calendar.from_config(app.config)
    db.init_app(app)

    from .api import api, register_error_handlers
    from .api_docs import api_docs
    from .openapi import openapi
    from .web import web

    app.register_blueprint(api)
    app.register_blueprint(web)
    for init_app in extensions:
        init_app(app)
    app.register_blueprint(openapi)
    app.register_blueprint(api_docs)
    register_error_handlers(app)
    request_guard.install(app)
    security_headers.install(app)
    cookieless.install(app)
    app.cli.add_command(init_db_command)
    init_db(app)
    return app


def init_db(app: Flask) -> None:
    """Create the schema and base data if missing; existing data is kept. Safe to run from
    several processes at once on one database."""
    from .fake_data import seed_airports, seed_sandbox
    from .schema_upgrade import upgrade
    from .services.knowledge_base import seed_articles

    with db.startup_lock(app.extensions["engine"]):
        db.create_schema(app.extensions["engine"], Base.metadata, upgrade=upgrade)
        session = app.extensions["sessionmaker"]()
        try:
            seed_airports(session)
            seed_articles(session)
            seed_sandbox(session, app.extensions["calendar"], app.config["DATA_SEED"], app.config["SANDBOX_BOOKINGS"])
        finally:
            session.close()


@click.command("init-db")
def init_db_command():
    """Create the tables and base data (idempotent)."""
    from flask import current_app

    init_db(current_app)
    click.echo("Initialized the database.")
