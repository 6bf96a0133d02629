"""Engine and session handling: one engine per app, one session per request, and the locks that
make concurrent writes safe on SQLite and on PostgreSQL."""
from __future__ import annotations

import functools
import hashlib
import time
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, current_app, g
from sqlalchemy import MetaData, create_engine, event, func, inspect, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

from .services.cards import CardHasher


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    if not url.startswith("sqlite"):
        # A connection per serving thread and some to spare (see crm_app/production_server.py).
        engine = create_engine(url, pool_size=10, max_overflow=20)
        event.listen(engine, "checkin", _note_checkin)
        event.listen(engine, "checkout", functools.partial(_ping_if_idle, engine.dialect))
        return engine
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
    event.listen(engine, "connect", _configure_sqlite)
    event.listen(engine, "begin", _begin)
    return engine


IDLE_BEFORE_PING = 5.0  # seconds a pooled connection may rest before it is checked on checkout


def _note_checkin(_dbapi_connection, record) -> None:
    record.info["checked_in"] = time.monotonic()


def _ping_if_idle(dialect, dbapi_connection, record, _proxy) -> None:
    """A connection that rested is pinged before use; if the database dropped it meanwhile (a
    restart), the pool throws it away and opens another. One in steady use is not pinged: that
    would cost a round trip on every request (SQLAlchemy's pool_pre_ping)."""
    if time.monotonic() - record.info.get("checked_in", time.monotonic()) < IDLE_BEFORE_PING:
        return
    try:
        dialect.do_ping(dbapi_connection)
    except Exception:  # noqa: BLE001  (whatever the driver raises for a dead connection)
        raise DisconnectionError("The pooled connection is gone") from None


def _configure_sqlite(dbapi_connection, _record) -> None:
    # Let SQLAlchemy, not the sqlite3 module, decide when transactions begin (see _begin_immediate).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _begin(connection) -> None:
    # Writers take the lock at BEGIN (see write_transaction) so that concurrent writers queue on the
    # busy timeout instead of failing with "database is locked" when a read tries to upgrade.
    mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")


@contextmanager
def write_transaction(session: Session, *locks: str):
    """One transaction for one write: everything in it commits together or not at all.

    Inside another write_transaction it joins that one, which commits (or rolls back) the whole;
    this is how a route makes a service's write and its own records one transaction.

    Writers that read before they write (is this code taken? how many events are there?) must not
    interleave. On SQLite every write transaction holds the database's one write lock from BEGIN,
    so they never do. On PostgreSQL, where writers run side by side, a write names what it reads
    in `locks` (see dataset_lock) and holds those advisory locks until it commits; reads inside
    it are READ COMMITTED, so after the lock they see whatever the previous holder committed.
    """
    if session.info.get("writing"):
        _take(session, locks)
        yield session
        return
    if session.in_transaction() and session.is_active and _on_postgresql(session):
        # READ COMMITTED sees every commit anyway: go on in the same transaction (two round trips
        # fewer than a new one), reading again what was loaded before (rows that never change aside).
        _expire_changeable(session)
    else:
        if session.in_transaction():
            session.rollback()  # services leave no pending changes; this only ends a read snapshot
        session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
    session.info["writing"] = True
    try:
        _take(session, locks)
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.info.pop("writing", None)


def _expire_changeable(session: Session) -> None:
    for row in list(session.identity_map.values()):
        if not row.never_changes:
            session.expire(row)


def dataset_lock(dataset: str) -> str:
    """The lock of everything stored in one dataset (the sandbox or a scenario): its bookings,
    events, API calls and idempotency keys."""
    return f"dataset:{dataset}"


def _on_postgresql(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def _take(session: Session, locks: tuple[str, ...]) -> None:
    if locks and _on_postgresql(session):
        for name in sorted(set(locks)):  # one order everywhere: no deadlock between two writers
            session.execute(select(func.pg_advisory_xact_lock(lock_key(name))))


def lock_key(name: str) -> int:
    """A lock's name as PostgreSQL's 64-bit advisory lock key."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True)


@contextmanager
def startup_lock(engine: Engine):
    """Servers (or gunicorn workers) starting together on one PostgreSQL database take turns to
    create the schema and the base data: each one after the first finds them there. SQLite needs
    nothing more than its write lock (see create_schema)."""
    if engine.dialect.name != "postgresql":
        yield
        return
    key = lock_key("startup")
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(select(func.pg_advisory_lock(key)))
        try:
            yield
        finally:
            connection.execute(select(func.pg_advisory_unlock(key)))


def create_schema(engine: Engine, metadata: MetaData, upgrade=None, attempts: int = 5) -> None:
    """Create the missing tables, then let `upgrade(connection)` alter older ones, in one
    transaction. Servers started at once on a new database race here: on SQLite the write lock
    taken at BEGIN queues them; elsewhere the loser of a race retries and then finds the tables there."""
    for attempt in range(1, attempts + 1):
        try:
            with engine.connect() as connection:
                connection.execution_options(sqlite_begin="IMMEDIATE")
                with connection.begin():
                    _create_missing_tables(connection, metadata)
                    if upgrade is not None:
                        upgrade(connection)
            return
        except DBAPIError:
            if attempt == attempts:
                raise
            time.sleep(0.1 * attempt)


def _create_missing_tables(connection, metadata: MetaData) -> None:
    """create_all for the tables the database lacks, found with one look at its table names (create_all
    alone asks once per table: every server start runs this)."""
    present = set(inspect(connection).get_table_names())
    missing = [table for table in metadata.sorted_tables if table.name not in present]
    if missing:
        metadata.create_all(connection, tables=missing, checkfirst=False)


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["engine"] = engine
    # Every session carries the keyed hasher, so that what stores or reads card data finds it.
    hasher = CardHasher(app.config["SECRET_KEY"])
    app.extensions["card_hasher"] = hasher
    app.extensions["sessionmaker"] = sessionmaker(engine, expire_on_commit=False, info={"card_hasher": hasher})
    app.teardown_appcontext(_close_session)


def card_hasher(session: Session) -> CardHasher:
    """The keyed hasher of card data of the app this session belongs to."""
    return session.info["card_hasher"]


def get_session() -> Session:
    """The current request's session, opened on first use."""
    if "db_session" not in g:
        g.db_session = current_app.extensions["sessionmaker"]()
    return g.db_session


def _close_session(_exc) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
