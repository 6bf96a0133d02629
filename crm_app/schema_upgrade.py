"""Columns added to existing tables since a database was created, and columns made wider:
`create_all` makes missing tables but never alters one, so a database from an older version gets
them here, once."""
from __future__ import annotations

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from .services.knowledge_base import create_search_index

# (table, column, its SQL definition with a default that holds for the rows already there)
ADDED_COLUMNS = (
    ("scenarios", "suite", "VARCHAR(20) NOT NULL DEFAULT 'full'"),  # scenarios/suites.py
    ("bookings", "fare", "VARCHAR(10) NOT NULL DEFAULT 'Standard'"),  # services/fares.py
    ("bookings", "booked_at", "TIMESTAMP"),
    ("bookings", "notes", "VARCHAR(300)"),  # models.NOTES_LENGTH
    ("customer_messages", "calls_before", "INTEGER NOT NULL DEFAULT 0"),
    ("customer_messages", "speaker", "VARCHAR(80)"),
    ("scenarios", "ui_variant", "INTEGER NOT NULL DEFAULT 0"),  # crm_app/ui_variants.py
    ("scenarios", "ui_variant_asked", "BOOLEAN NOT NULL DEFAULT FALSE"),
    ("api_calls", "events_before", "INTEGER NOT NULL DEFAULT 0"),  # scenarios/timeline.py
    ("api_calls", "state_after", "JSON"),
    ("events", "received_at", "TIMESTAMP"),  # scenarios/activity.py
    ("customer_messages", "received_at", "TIMESTAMP"),
    ("scenarios", "customer_variant", "INTEGER NOT NULL DEFAULT 0"),  # scenarios/customer/variants/
    ("scenarios", "customer_variant_asked", "BOOLEAN NOT NULL DEFAULT FALSE"),
)


# (table, column, the length it now holds) for text columns made longer; SQLite does not hold text
# to its length, PostgreSQL refuses longer values.
WIDENED_COLUMNS = (
    ("customer_messages", "text", 8000),  # an agent's line: scenarios/customer/transcript.MAX_TEXT
)


def upgrade(connection: Connection) -> list[str]:
    """Bring an older database's tables up to date; the `table.column` names changed. (The
    knowledge base's search index, on SQLite, is made here too: create_all makes no virtual table.)"""
    create_search_index(connection)
    return add_missing_columns(connection) + widen_columns(connection)


def widen_columns(connection: Connection) -> list[str]:
    """Give every WIDENED_COLUMNS column its length where the database holds text to a shorter one."""
    if connection.dialect.name == "sqlite":
        return []
    found, widened = columns_of(connection, {table for table, _, _ in WIDENED_COLUMNS}), []
    for table, column, length in WIDENED_COLUMNS:
        current = getattr(found.get(table, {}).get(column, {}).get("type"), "length", None)
        if current is not None and current < length:
            connection.execute(text(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE VARCHAR({length})"))
            widened.append(f"{table}.{column}")
    return widened


def add_missing_columns(connection: Connection) -> list[str]:
    """Add every ADDED_COLUMNS column its table lacks, in the connection's transaction; the
    `table.column` names added."""
    found, added = columns_of(connection, {table for table, _, _ in ADDED_COLUMNS}), []
    for table, column, definition in ADDED_COLUMNS:
        if table in found and column not in found[table]:
            connection.execute(text(f"ALTER TABLE {table} ADD COLUMN {column} {definition}"))
            added.append(f"{table}.{column}")
    return added


def columns_of(connection: Connection, tables: set[str]) -> dict[str, dict[str, dict]]:
    """table -> column name -> its reflected description, for those of `tables` the database has,
    read at once (one catalogue query on PostgreSQL, not two per table: every server start runs this)."""
    inspector = inspect(connection)
    present = tables & set(inspector.get_table_names())
    if not present:
        return {}
    reflected = inspector.get_multi_columns(filter_names=sorted(present))
    return {table: {info["name"]: info for info in columns} for (_, table), columns in reflected.items()}
