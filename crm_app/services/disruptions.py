"""Flights the airline cancelled or delayed, per dataset (a scenario's own; the sandbox has none):
what a flight's status is there, as the policy reads it and the hard look shows it."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import FlightDisruption

ON_TIME, CANCELLED, DELAYED = "On time", "Cancelled", "Delayed"
STATUSES = (CANCELLED, DELAYED)  # what a disruption row may hold


@dataclass(frozen=True)
class FlightStatus:
    status: str = ON_TIME
    delay_minutes: int = 0

    def answer(self) -> dict:
        return {"status": self.status, "delay_minutes": self.delay_minutes}


ON_TIME_STATUS = FlightStatus()


def statuses(session: Session, dataset: str, flight_ids: Iterable[int]) -> dict[int, FlightStatus]:
    """The status of each of these flights in the dataset that is not on time, by flight id (one query)."""
    wanted = set(flight_ids)
    if not wanted:
        return {}
    rows = session.scalars(select(FlightDisruption).where(FlightDisruption.dataset == dataset,
                                                          FlightDisruption.flight_id.in_(wanted)))
    return {row.flight_id: FlightStatus(row.status, row.delay_minutes) for row in rows}


def disruption_row(dataset: str, flight_id: int, status: str, delay_minutes: int = 0) -> FlightDisruption:
    """A checked row to add in the caller's transaction (a scenario's setup)."""
    if status not in STATUSES:
        raise ValueError(f"unknown flight status {status!r}; one of {', '.join(STATUSES)}")
    if (status == CANCELLED) != (delay_minutes == 0) or delay_minutes < 0:
        raise ValueError("a cancelled flight has no delay; a delayed one has minutes of delay")
    return FlightDisruption(dataset=dataset, flight_id=flight_id, status=status, delay_minutes=delay_minutes)
