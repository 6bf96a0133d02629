"""Default settings. Any of them can be overridden by create_app(config) or the environment."""
from __future__ import annotations

import os
from pathlib import Path

from .locations import default_instance_folder, page_folder

DEFAULTS = {
    # A SQLAlchemy URL; empty: the SQLite file crm.db in the instance folder (the database the tests cover).
    "DATABASE_URL": "",
    # The simulated clock: scenarios replay identically because 'today' never moves.
    "TODAY": "2026-06-01",
    # How many days after 'today' flights can be sold.
    "SELLABLE_DAYS": 365,
    # Seed of the fake world (flight schedules, prices, sandbox bookings).
    "DATA_SEED": 20240601,
    # Bookings created in the shared sandbox dataset on first start.
    "SANDBOX_BOOKINGS": 40,
    # Where secrets (when not given below) and the default database are kept; empty: the checkout's
    # instance/, or a per-user data folder when installed (crm_app/locations.py).
    "INSTANCE_PATH": None,
    # Shows /evaluate's gold values to whoever sends it; empty: read or made in the instance folder.
    "OPERATOR_TOKEN": None,
    # Key of the keyed hashes of card data; empty: read or made in the instance folder.
    "SECRET_KEY": None,
    # Page events and API calls recorded per scenario; past these a scenario's requests get a 429.
    "MAX_EVENTS": 5000,
    "MAX_API_CALLS": 5000,
    # Where visitors reach the server (scenario urls start with it); empty: the request's own host.
    "PUBLIC_URL": "",
    # The scenario suite /generate-random-scenario serves (scenarios/suites.py): "full", "paper" or "hard".
    "SUITE": "full",
    # The customer on the line (scenarios/customer/): a model of an OpenAI-compatible endpoint
    # role-plays it when set (its key from OPENAI_API_KEY); empty: the deterministic rule-based one.
    "CUSTOMER_MODEL": "",
    "CUSTOMER_BASE_URL": "",
    # The folder whose templates/ and static/ make the page: the repository's root, or the installed package's.
    "PAGE_FOLDER": str(page_folder()),
}

ENVIRONMENT_KEYS = {"DATABASE_URL": "DATABASE_URL", "TODAY": "CRM_TODAY", "DATA_SEED": "CRM_DATA_SEED",
                    "INSTANCE_PATH": "CRM_INSTANCE_PATH", "OPERATOR_TOKEN": "CRM_OPERATOR_TOKEN",
                    "SECRET_KEY": "CRM_SECRET_KEY", "MAX_EVENTS": "CRM_MAX_EVENTS",
                    "MAX_API_CALLS": "CRM_MAX_API_CALLS", "PUBLIC_URL": "CRM_PUBLIC_URL", "SUITE": "CRM_SUITE",
                    "CUSTOMER_MODEL": "CRM_CUSTOMER_MODEL", "CUSTOMER_BASE_URL": "CRM_CUSTOMER_BASE_URL"}
INTEGER_KEYS = ("DATA_SEED", "MAX_EVENTS", "MAX_API_CALLS")


def load_config(overrides: dict | None = None) -> dict:
    config = dict(DEFAULTS)
    for key, variable in ENVIRONMENT_KEYS.items():
        if os.environ.get(variable):
            config[key] = os.environ[variable]
    config.update(overrides or {})
    for key in INTEGER_KEYS:
        config[key] = int(config[key])
    config["PUBLIC_URL"] = checked_public_url(config["PUBLIC_URL"])
    config["INSTANCE_PATH"] = str(Path(config["INSTANCE_PATH"] or default_instance_folder()).resolve())
    config["DATABASE_URL"] = config["DATABASE_URL"] or default_database(config["INSTANCE_PATH"])
    return config


def default_database(instance_folder: str) -> str:
    return f"sqlite:///{Path(instance_folder) / 'crm.db'}"


def checked_public_url(url: str | None) -> str:
    """'' or an http(s) base URL ending in '/'; anything else stops the server at start."""
    if not url:
        return ""
    if not url.startswith(("http://", "https://")) or any(c in url for c in "?# "):
        raise ValueError(f"CRM_PUBLIC_URL / --public-url must be an http:// or https:// URL, got {url!r}")
    return url.rstrip("/") + "/"
