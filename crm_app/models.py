"""The CRM's tables, as SQLAlchemy 2.0 declarative models.

Every booking belongs to a dataset: the shared sandbox ("sandbox") or one scenario's id, so that
scenarios run side by side on one database without seeing each other.
"""
from __future__ import annotations

import datetime as dt
import secrets

from sqlalchemy import JSON, BigInteger, Date, DateTime, ForeignKey, Integer, String, UniqueConstraint, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from .services.cards import CardHasher

SANDBOX = "sandbox"
NOTES_LENGTH = 300  # a booking's special requests


def server_clock() -> dt.datetime:
    """Now on the server's clock in UTC, without its zone (as every database here keeps a TIMESTAMP)."""
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(DeclarativeBase):
    # Whole numbers (row ids above all) are 64-bit on every database, as SQLite's INTEGER already
    # is: an id up to 2**63 - 1 that a request names is looked up, not refused by PostgreSQL.
    type_annotation_map = {int: BigInteger().with_variant(Integer, "sqlite")}
    # True on tables whose rows are never updated or deleted once stored: a row loaded earlier in
    # a transaction is still what the database holds (see db.write_transaction).
    never_changes = False


class Airport(Base):
    __tablename__ = "airports"
    never_changes = True

    code: Mapped[str] = mapped_column(String(3), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    city: Mapped[str] = mapped_column(String(80))
    region: Mapped[str] = mapped_column(String(10))
    country: Mapped[str] = mapped_column(String(2))
    timezone: Mapped[str] = mapped_column(String(40))
    latitude: Mapped[float]
    longitude: Mapped[float]

    @property
    def label(self) -> str:
        return f"{self.city}, {self.region} ({self.code})"


class Flight(Base):
    """One departure of a scheduled flight. Rows are generated the first time a route-day is asked."""

    __tablename__ = "flights"
    never_changes = True
    __table_args__ = (UniqueConstraint("origin", "destination", "departure_date", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(String(8))
    origin: Mapped[str] = mapped_column(ForeignKey("airports.code"))
    destination: Mapped[str] = mapped_column(ForeignKey("airports.code"))
    departure_date: Mapped[dt.date] = mapped_column(Date, index=True)
    departure_minute: Mapped[int]  # local time at the origin, minutes after midnight
    arrival_date: Mapped[dt.date] = mapped_column(Date)
    arrival_minute: Mapped[int]  # local time at the destination
    duration_minutes: Mapped[int]
    price_cents: Mapped[int]


class RouteDay(Base):
    """Marks a route-day whose flights have been generated, so a search generates only once."""

    __tablename__ = "route_days"
    never_changes = True

    origin: Mapped[str] = mapped_column(String(3), primary_key=True)
    destination: Mapped[str] = mapped_column(String(3), primary_key=True)
    day: Mapped[dt.date] = mapped_column(Date, primary_key=True)


class Booking(Base):
    __tablename__ = "bookings"
    __table_args__ = (UniqueConstraint("dataset", "code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset: Mapped[str] = mapped_column(String(40), index=True)
    code: Mapped[str] = mapped_column(String(6))
    status: Mapped[str] = mapped_column(String(12), default="Confirmed")
    trip_type: Mapped[str] = mapped_column(String(8))
    created_on: Mapped[dt.date] = mapped_column(Date)
    fare: Mapped[str] = mapped_column(String(10), default="Standard", server_default="Standard")  # services/fares.py
    # When it was made on the simulated clock (dates.Calendar.now); None on rows older than the column.
    booked_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    # Special requests noted on the booking (a scenario's data, shown as text, never acted on); None: none.
    notes: Mapped[str | None] = mapped_column(String(NOTES_LENGTH), nullable=True)

    segments: Mapped[list[Segment]] = relationship(
        back_populates="booking", cascade="all, delete-orphan", order_by="Segment.position"
    )
    passengers: Mapped[list[Passenger]] = relationship(
        back_populates="booking", cascade="all, delete-orphan", order_by="Passenger.id"
    )
    payment: Mapped[Payment | None] = relationship(
        back_populates="booking", cascade="all, delete-orphan", uselist=False
    )

    @property
    def passenger(self) -> Passenger:
        return self.passengers[0]

    @property
    def made_at(self) -> dt.datetime:
        return self.booked_at or dt.datetime.combine(self.created_on, dt.time())


class Segment(Base):
    """A flight in a booking, with the fare paid for it."""

    __tablename__ = "segments"

    id: Mapped[int] = mapped_column(primary_key=True)
    booking_id: Mapped[int] = mapped_column(ForeignKey("bookings.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]  # 0 outward, 1 return
    direction: Mapped[str] = mapped_column(String(8))
    flight_id: Mapped[int] = mapped_column(ForeignKey("flights.id"))
    fare_cents: Mapped[int]

    booking: Mapped[Booking] = relationship(back_populates="segments")
    flight: Mapped[Flight] = relationship(lazy="joined")


class Passenger(Base):
    __tablename__ = "passengers"

    id: Mapped[int] = mapped_column(primary_key=True)
    booking_id: Mapped[int] = mapped_column(ForeignKey("bookings.id", ondelete="CASCADE"), index=True)
    title: Mapped[str] = mapped_column(String(5))
    first_name: Mapped[str] = mapped_column(String(60))
    last_name: Mapped[str] = mapped_column(String(60))
    email: Mapped[str] = mapped_column(String(120))
    gender: Mapped[str] = mapped_column(String(10))
    date_of_birth: Mapped[dt.date] = mapped_column(Date)

    booking: Mapped[Booking] = relationship(back_populates="passengers")


class Payment(Base):
    """The card used for a booking: only its last four digits and a salted keyed hash are kept
    (the key lives outside the database, see services/cards.py)."""

    __tablename__ = "payments"

    id: Mapped[int] = mapped_column(primary_key=True)
    booking_id: Mapped[int] = mapped_column(ForeignKey("bookings.id", ondelete="CASCADE"), unique=True)
    card_last4: Mapped[str] = mapped_column(String(4))
    card_salt: Mapped[str] = mapped_column(String(32))
    card_hash: Mapped[str] = mapped_column(String(64))
    expiry: Mapped[str] = mapped_column(String(5))
    name_on_card: Mapped[str] = mapped_column(String(120))
    amount_cents: Mapped[int]

    booking: Mapped[Booking] = relationship(back_populates="payment")

    PURPOSE = "payment"

    def set_card(self, number: str, hasher: CardHasher) -> None:
        self.card_salt = secrets.token_hex(16)
        self.card_hash = hasher.digest(self.PURPOSE, f"{self.card_salt}:{number}")
        self.card_last4 = number[-4:]

    @classmethod
    def stored_card_matches(cls, card_salt: str, card_hash: str, number: str, hasher: CardHasher) -> bool:
        """Whether a payment row's salt and hash are those of the card `number`."""
        return hasher.matches(card_hash, f"{card_salt}:{number}", cls.PURPOSE)


class FlightDisruption(Base):
    """A flight the airline cancelled or delayed, in one dataset: flights are shared by every
    dataset, so a scenario's disruptions are its own rows (written with its bookings)."""

    __tablename__ = "flight_disruptions"
    __table_args__ = (UniqueConstraint("dataset", "flight_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset: Mapped[str] = mapped_column(String(40), index=True)
    flight_id: Mapped[int] = mapped_column(ForeignKey("flights.id"))
    status: Mapped[str] = mapped_column(String(12))  # services/disruptions.py: CANCELLED or DELAYED
    delay_minutes: Mapped[int] = mapped_column(default=0)  # 0 for a cancelled flight


class KbDocument(Base):
    """A knowledge-base article (dataset "": every dataset reads it; crm_app/knowledge_base/) or a
    scenario's own bulletin (dataset the scenario's id, written with its bookings): what the
    knowledge base searches (services/knowledge_base.py)."""

    __tablename__ = "kb_documents"
    __table_args__ = (UniqueConstraint("dataset", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset: Mapped[str] = mapped_column(String(40), index=True)
    key: Mapped[str] = mapped_column(String(80))  # the article's id as the API names it
    title: Mapped[str] = mapped_column(String(200))
    effective: Mapped[dt.date] = mapped_column(Date)
    superseded_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    body: Mapped[str] = mapped_column(String(4000))
    terms: Mapped[dict | None] = mapped_column(JSON, nullable=True)  # what the policy reads of it


class Scenario(Base):
    """A generated task instance: a pure function of (suite, task, seed), stored so it can be scored."""

    __tablename__ = "scenarios"
    never_changes = True

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    task: Mapped[str] = mapped_column(String(40))
    seed: Mapped[int] = mapped_column(Integer)
    suite: Mapped[str] = mapped_column(String(20), default="full", server_default="full")  # scenarios/suites.py
    ui_variant: Mapped[int] = mapped_column(default=0, server_default="0")  # crm_app/ui_variants.py
    ui_variant_asked: Mapped[bool] = mapped_column(default=False, server_default=false())  # 0 too, when asked
    customer_variant: Mapped[int] = mapped_column(default=0, server_default="0")  # scenarios/customer/variants/
    customer_variant_asked: Mapped[bool] = mapped_column(default=False, server_default=false())
    details: Mapped[dict] = mapped_column(JSON)
    created_on: Mapped[dt.date] = mapped_column(Date)


class Event(Base):
    """One user action recorded by the page inside a scenario."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("scenario_id", "page", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)  # arrival order
    scenario_id: Mapped[str] = mapped_column(ForeignKey("scenarios.id", ondelete="CASCADE"), index=True)
    page: Mapped[str] = mapped_column(String(40))
    seq: Mapped[int]
    action: Mapped[str] = mapped_column(String(10))
    target: Mapped[str] = mapped_column(String(80))
    value: Mapped[str | None] = mapped_column(String(200), nullable=True)
    fields: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # When the server stored it (server_clock); None on rows stored before the time was kept.
    received_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True, default=server_clock)


class ApiCall(Base):
    """One JSON API request served inside a scenario, in arrival order (see scenarios/calls.py):
    the operation, its normalized parameters (card data as keyed hashes) and the answer's status."""

    __tablename__ = "api_calls"

    id: Mapped[int] = mapped_column(primary_key=True)  # arrival order
    scenario_id: Mapped[str] = mapped_column(ForeignKey("scenarios.id", ondelete="CASCADE"), index=True)
    operation: Mapped[str] = mapped_column(String(40))
    params: Mapped[dict] = mapped_column(JSON)
    status: Mapped[int]
    # Events the scenario had recorded when the call was answered: orders the call among them.
    events_before: Mapped[int] = mapped_column(default=0, server_default="0")
    # The scenario's bookings after a write that succeeded: the state at each step of a timeline.
    state_after: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class CustomerMessage(Base):
    """One line of a scenario's call with its simulated customer (scenarios/customer/), in order."""

    __tablename__ = "customer_messages"

    id: Mapped[int] = mapped_column(primary_key=True)  # the call's order
    scenario_id: Mapped[str] = mapped_column(ForeignKey("scenarios.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(10))  # agent, customer, transfer; "end": the rep ended the call
    text: Mapped[str] = mapped_column(String(8000))  # schema_upgrade.WIDENED_COLUMNS widens older databases
    # API calls the scenario had recorded when the line was said: orders the call against its writes.
    calls_before: Mapped[int] = mapped_column(default=0, server_default="0")
    # Which customer said a customer's line: "rules", or "llm:<model>"; None for the agent's lines.
    speaker: Mapped[str | None] = mapped_column(String(80), nullable=True)
    # When the server stored it (server_clock); None on rows stored before the time was kept.
    received_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True, default=server_clock)


class IdempotencyKey(Base):
    """An Idempotency-Key sent with a write, and the answer that write got. The row is added in
    the write's own transaction, before the write; the unique (dataset, key) makes a concurrent
    request with the same key wait for that transaction and then fail, so the write happens once."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("dataset", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset: Mapped[str] = mapped_column(String(40))
    key: Mapped[str] = mapped_column(String(255))
    fingerprint: Mapped[str] = mapped_column(String(64))  # sha256 of method, path and body
    status: Mapped[int | None]
    response: Mapped[dict | None] = mapped_column(JSON, nullable=True)
