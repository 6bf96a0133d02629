"""Typed dates (MM/DD/YYYY or YYYY-MM-DD), the simulated clock and the sellable window."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .errors import InvalidInput, excerpt

DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y")
CLOCK = dt.time(9, 0)  # the simulated clock's time of day on its today (the policy's 24-hour rules)


def read_date(text: str) -> dt.date | None:
    """A date from typed ISO or US text, or None."""
    for fmt in DATE_FORMATS:
        try:
            return dt.datetime.strptime(text.strip(), fmt).date()
        except ValueError:
            continue
    return None


def parse_date(value, label: str) -> dt.date:
    """A date from ISO or US text; a clear message naming `label` otherwise."""
    if isinstance(value, dt.date):
        return value
    text = value.strip() if isinstance(value, str) else ""
    day = read_date(text)
    if day is not None:
        return day
    if not text:
        raise InvalidInput(f"{label} is required")
    raise InvalidInput(f"{label} must be a date like MM/DD/YYYY or YYYY-MM-DD (got {excerpt(text)})")


@dataclass(frozen=True)
class Calendar:
    """The simulated today and the days on which flights are sold."""

    today: dt.date
    sellable_days: int

    @classmethod
    def from_config(cls, config: dict) -> Calendar:
        return cls(dt.date.fromisoformat(str(config["TODAY"])), int(config["SELLABLE_DAYS"]))

    @property
    def now(self) -> dt.datetime:
        return dt.datetime.combine(self.today, CLOCK)

    @property
    def first_date(self) -> dt.date:
        return self.today

    @property
    def last_date(self) -> dt.date:
        return self.today + dt.timedelta(days=self.sellable_days)

    def check_sellable(self, day: dt.date, label: str) -> dt.date:
        if self.first_date <= day <= self.last_date:
            return day
        raise InvalidInput(f"{label} must be between {us_date(self.first_date)} and {us_date(self.last_date)}")


def us_date(day: dt.date) -> str:
    return day.strftime("%m/%d/%Y")
