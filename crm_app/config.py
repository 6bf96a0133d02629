"""Default settings. Any of them can be overridden by create_app(config) or the environment."""
from __future__ import annotations

import os

DEFAULTS = {
    # A SQLAlchemy URL; SQLite (the default, a file under instance/) is the database the tests cover.
    "DATABASE_URL": "sqlite:///instance/crm.db",
    # The simulated clock: scenarios replay identically because 'today' never moves.
    "TODAY": "2026-06-01",
    # How many days after 'today' flights can be sold.
    "SELLABLE_DAYS": 365,
    # Seed of the fake world (flight schedules, prices, sandbox bookings).
    "DATA_SEED": 20240601,
    # Bookings created in the shared sandbox dataset on first start.
    "SANDBOX_BOOKINGS": 40,
    # Where visitors reach the server (scenario urls start with it); empty: the request's own host.
    "PUBLIC_URL": "",
}

ENVIRONMENT_KEYS = {"DATABASE_URL": "DATABASE_URL", "TODAY": "CRM_TODAY", "DATA_SEED": "CRM_DATA_SEED",
                    "PUBLIC_URL": "CRM_PUBLIC_URL"}


def load_config(overrides: dict | None = None) -> dict:
    config = dict(DEFAULTS)
    for key, variable in ENVIRONMENT_KEYS.items():
        if os.environ.get(variable):
            config[key] = os.environ[variable]
    config.update(overrides or {})
    config["DATA_SEED"] = int(config["DATA_SEED"])
    config["PUBLIC_URL"] = checked_public_url(config["PUBLIC_URL"])
    return config


def checked_public_url(url: str | None) -> str:
    """'' or an http(s) base URL ending in '/'; anything else stops the server at start."""
    if not url:
        return ""
    if not url.startswith(("http://", "https://")) or any(c in url for c in "?# "):
        raise ValueError(f"CRM_PUBLIC_URL / --public-url must be an http:// or https:// URL, got {url!r}")
    return url.rstrip("/") + "/"
