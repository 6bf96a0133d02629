"""The database the tests run on, chosen by CRM_TEST_DATABASE:

- `sqlite` (the default): every new database is a SQLite file in the test's own folder;
- `postgresql`: a throw-away PostgreSQL server is started for the test session (see
  postgres_cluster.py) and every new database is a schema of its own in one database there,
  reached through the URL's search_path (a schema is made in a millisecond, a database in a
  tenth of a second);
- a `postgresql+psycopg://...` URL: the same on a server you run, whose user may create schemas.

`make test` runs the API, scenario and concurrency tests on both (see the Makefile).
"""
from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path

from sqlalchemy import Integer, create_engine, text

VARIABLE = "CRM_TEST_DATABASE"
DATABASE = "crm_tests"


def chosen() -> str:
    value = os.environ.get(VARIABLE, "").strip() or "sqlite"
    if value not in ("sqlite", "postgresql") and not value.startswith("postgresql+psycopg://"):
        raise ValueError(f"{VARIABLE} must be sqlite, postgresql or a postgresql+psycopg:// URL, got {value!r}")
    return value


class TestDatabases:
    """New empty databases on the chosen kind; `close()` stops what was started for them."""

    def __init__(self, choice: str | None = None):
        self.choice = choice or chosen()
        self.kind = "sqlite" if self.choice == "sqlite" else "postgresql"
        self._cluster = None
        self._server_url: str | None = None
        self._numbers = itertools.count(1)
        self._schemas: list[str] = []

    def new(self, folder: Path, name: str = "crm") -> str:
        """The URL of a new, empty database (`name` tells apart several in one folder)."""
        if self.kind == "sqlite":
            return f"sqlite:///{Path(folder) / name}.db"
        schema = f"test_{next(self._numbers)}_{os.getpid()}"
        base = self._server()
        with create_engine(base, isolation_level="AUTOCOMMIT").connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        self._schemas.append(schema)
        return f"{base}?options=-csearch_path%3D{schema}"

    def copy(self, url: str, folder: Path, name: str = "crm") -> str:
        """A new database holding what the closed database at `url` holds: on SQLite a copy of its
        file; on PostgreSQL a new schema with the app's tables, their rows copied inside the server
        (about two thirds of the CPU the app takes to fill a schema itself; a whole database copied
        with CREATE DATABASE ... TEMPLATE is no faster than a filled schema)."""
        if self.kind == "sqlite":
            copied = Path(folder) / f"{name}.db"
            shutil.copyfile(url.removeprefix("sqlite:///"), copied)
            return f"sqlite:///{copied}"
        copied = self.new(folder, name)
        _copy_rows(url, copied)
        return copied

    def _server(self) -> str:
        if self._server_url is None:
            if self.choice == "postgresql":
                from .postgres_cluster import TemporaryCluster

                self._cluster = TemporaryCluster().start()
                self._server_url = self._cluster.create_database(DATABASE)
            else:
                self._server_url = self.choice
        return self._server_url

    def close(self) -> None:
        if self._cluster is not None:
            self._cluster.stop()  # and with it every schema
            self._cluster = None
        elif self._schemas:  # a server of yours keeps nothing of the tests
            with create_engine(self._server_url, isolation_level="AUTOCOMMIT").connect() as connection:
                connection.execute(text("SET lock_timeout = '10s'"))
                for schema in self._schemas:
                    connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        self._schemas.clear()


def _schema_of(url: str) -> str:
    return url.rsplit("search_path%3D", 1)[1]


def _copy_rows(source: str, target: str) -> None:
    """The app's tables made in `target`'s empty schema as the app makes them, then every row of
    `source`'s, each table's id sequence set past its rows."""
    from crm_app.db import create_schema
    from crm_app.models import Base

    engine = create_engine(target)
    try:
        create_schema(engine, Base.metadata)  # new tables: nothing to upgrade
        source_schema, target_schema = _schema_of(source), _schema_of(target)
        with engine.begin() as connection:
            for table in Base.metadata.sorted_tables:
                connection.execute(text(f'INSERT INTO "{target_schema}"."{table.name}" '
                                        f'SELECT * FROM "{source_schema}"."{table.name}"'))
                key = list(table.primary_key.columns)
                if len(key) == 1 and isinstance(key[0].type, Integer):  # NULL where it has no sequence
                    column, where = key[0].name, f'"{target_schema}"."{table.name}"'
                    connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{where}', '{column}'), "
                                            f'COALESCE(MAX("{column}"), 1), MAX("{column}") IS NOT NULL) FROM {where}'))
    finally:
        engine.dispose()


def dispose(app) -> None:
    """Close the app's database connections (a test's app is done with its database)."""
    app.extensions["engine"].dispose()
