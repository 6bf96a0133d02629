"""AirlineCRM: a mock airline call-center CRM (Flask app factory)."""
from __future__ import annotations

from pathlib import Path

import click
from flask import Flask

from . import cookieless, db, request_guard, security_headers
from .config import load_config
from .instance_secrets import load_secrets
from .models import Base
from .services.dates import Calendar

ROOT = Path(__file__).resolve().parent.parent


def create_app(config: dict | None = None) -> Flask:
    settings = load_config(config)
    instance = settings["INSTANCE_PATH"]
    app = Flask(__name__, template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"),
                instance_path=str(Path(instance).resolve()) if instance else None)
    load_secrets(settings, app.instance_path)
    app.config.update(settings)
    app.json.sort_keys = False
    app.extensions["calendar"] = Calendar.from_config(app.config)
    db.init_app(app)

    from .api import api, register_error_handlers
    from .openapi import openapi
    from .web import web
    from scenarios.routes import scenario_routes

    app.register_blueprint(api)
    app.register_blueprint(web)
    app.register_blueprint(scenario_routes)
    app.register_blueprint(openapi)
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
    from .schema_upgrade import add_missing_columns

    with db.startup_lock(app.extensions["engine"]):
        db.create_schema(app.extensions["engine"], Base.metadata, upgrade=add_missing_columns)
        session = app.extensions["sessionmaker"]()
        try:
            seed_airports(session)
            seed_sandbox(session, app.extensions["calendar"], app.config["DATA_SEED"], app.config["SANDBOX_BOOKINGS"])
        finally:
            session.close()


@click.command("init-db")
def init_db_command():
    """Create the tables and base data (idempotent)."""
    from flask import current_app

    init_db(current_app)
    click.echo("Initialized the database.")
