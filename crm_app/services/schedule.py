"""The flight timetable: a pure function of (world seed, route, day).

Nothing here touches the database; flights.py stores what this plans the first time a route-day is
searched. The same seed gives the same flight numbers, times and prices on every machine.
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


@lru_cache(maxsize=4096)
def route_numbers(seed: int, origin: str, destination: str) -> tuple[str, ...]:
    """The route's flight numbers; the same every day, as on a real timetable."""
    rng = random.Random(f"{seed}:numbers:{origin}-{destination}")
    return tuple(f"CR{n}" for n in rng.sample(range(100, 9999), MAX_FLIGHTS))


def plan_day(seed: int, origin: Place, destination: Place, day: dt.date, today: dt.date) -> list[PlannedFlight]:
    """The flights of one route on one day, sorted by departure time."""
    rng = random.Random(f"{seed}:day:{origin.code}-{destination.code}:{day.isoformat()}")
    count = rng.randint(MIN_FLIGHTS, MAX_FLIGHTS)
    minutes = sorted(rng.sample(range(FIRST_DEPARTURE, LAST_DEPARTURE), count))
    km = distance_km(origin, destination)
    base_duration = GROUND_MINUTES + km / CRUISE_KMH * 60
    numbers = route_numbers(seed, origin.code, destination.code)
    return [
        _plan_flight(rng, numbers[i], origin, destination, day, minute, base_duration, km, today)
        for i, minute in enumerate(minutes)
    ]


def _plan_flight(rng, number, origin, destination, day, minute, base_duration, km, today) -> PlannedFlight:
    duration = round(base_duration * rng.uniform(0.95, 1.08))
    departs = dt.datetime.combine(day, dt.time(minute // 60, minute % 60), ZoneInfo(origin.timezone))
    arrives = (departs + dt.timedelta(minutes=duration)).astimezone(ZoneInfo(destination.timezone))
    return PlannedFlight(
        number=number,
        departure_date=day,
        departure_minute=minute,
        arrival_date=arrives.date(),
        arrival_minute=arrives.hour * 60 + arrives.minute,
        duration_minutes=duration,
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
