"""The flight timetable: a pure function of (world seed, route, day).

Each route has a fixed timetable of flight numbers, departure times and durations; each day
operates a share of it at that day's fares. Nothing here touches the database; flights.py stores
what this plans the first time a route-day is searched. The same seed gives the same flight
numbers, times and prices on every machine.
"""
from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from zoneinfo import ZoneInfo

MIN_FLIGHTS, MAX_FLIGHTS = 4, 8
FIRST_DEPARTURE, LAST_DEPARTURE = 5 * 60 + 30, 22 * 60  # local minutes after midnight
CRUISE_KMH = 780
GROUND_MINUTES = 35  # taxi, climb and descent on top of cruise time


@dataclass(frozen=True)
class PlannedFlight:
    number: str
    departure_date: dt.date
    departure_minute: int
    arrival_date: dt.date
    arrival_minute: int
    duration_minutes: int
    price_cents: int


@dataclass(frozen=True)
class Place:
    code: str
    timezone: str
    latitude: float
    longitude: float


def distance_km(a: Place, b: Place) -> float:
    """Great-circle distance."""
    lat1, lon1, lat2, lon2 = map(math.radians, (a.latitude, a.longitude, b.latitude, b.longitude))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


@dataclass(frozen=True)
class ScheduledFlight:
    """A line of a route's timetable: one flight number, always at the same time."""

    number: str
    departure_minute: int  # local time at the origin
    duration_minutes: int


@lru_cache(maxsize=4096)
def route_numbers(seed: int, origin: str, destination: str) -> tuple[str, ...]:
    """The route's flight numbers."""
    rng = random.Random(f"{seed}:numbers:{origin}-{destination}")
    return tuple(f"CR{n}" for n in rng.sample(range(100, 9999), MAX_FLIGHTS))


@lru_cache(maxsize=4096)
def timetable(seed: int, origin: Place, destination: Place) -> tuple[ScheduledFlight, ...]:
    """The route's flights, in departure order. A flight number is one flight: it flies this
    route at the same time, for the same duration, every day it operates."""
    rng = random.Random(f"{seed}:timetable:{origin.code}-{destination.code}")
    minutes = sorted(rng.sample(range(FIRST_DEPARTURE, LAST_DEPARTURE), MAX_FLIGHTS))
    base_duration = GROUND_MINUTES + distance_km(origin, destination) / CRUISE_KMH * 60
    numbers = route_numbers(seed, origin.code, destination.code)
    return tuple(ScheduledFlight(number, minute, round(base_duration * rng.uniform(0.95, 1.08)))
                 for number, minute in zip(numbers, minutes))


def plan_day(seed: int, origin: Place, destination: Place, day: dt.date, today: dt.date) -> list[PlannedFlight]:
    """The flights of one route on one day, sorted by departure time: the day's share of the
    timetable, each at a fare of that day."""
    rng = random.Random(f"{seed}:day:{origin.code}-{destination.code}:{day.isoformat()}")
    table = timetable(seed, origin, destination)
    operating = sorted(rng.sample(range(len(table)), rng.randint(MIN_FLIGHTS, MAX_FLIGHTS)))
    km = distance_km(origin, destination)
    return [_plan_flight(rng, table[i], origin, destination, day, km, today) for i in operating]


def _plan_flight(rng, flight: ScheduledFlight, origin, destination, day, km, today) -> PlannedFlight:
    minute = flight.departure_minute
    departs = dt.datetime.combine(day, dt.time(minute // 60, minute % 60), ZoneInfo(origin.timezone))
    arrives = (departs + dt.timedelta(minutes=flight.duration_minutes)).astimezone(ZoneInfo(destination.timezone))
    return PlannedFlight(
        number=flight.number,
        departure_date=day,
        departure_minute=minute,
        arrival_date=arrives.date(),
        arrival_minute=arrives.hour * 60 + arrives.minute,
        duration_minutes=flight.duration_minutes,
        price_cents=_fare_cents(rng, km, minute, (day - today).days),
    )


def _fare_cents(rng: random.Random, km: float, minute: int, days_ahead: int) -> int:
    base = 39 + 0.07 * km
    peak = 1.15 if 7 * 60 <= minute <= 9 * 60 or 17 * 60 <= minute <= 19 * 60 else 1.0
    late_booking = 1.35 if days_ahead < 7 else 1.15 if days_ahead < 21 else 1.0
    return round(base * peak * late_booking * rng.uniform(0.8, 1.3) * 100)


def clock_time(minute: int) -> str:
    """Minutes after midnight as the CRM shows them: 7:01pm, 12:05am."""
    hour, minutes = divmod(minute, 60)
    suffix = "am" if hour < 12 else "pm"
    return f"{(hour % 12) or 12}:{minutes:02d}{suffix}"


def departure_moment(day: dt.date, minute: int) -> dt.datetime:
    """A flight's departure as a (local) date and time, from its date and minute after midnight."""
    return dt.datetime.combine(day, dt.time(*divmod(minute, 60)))
