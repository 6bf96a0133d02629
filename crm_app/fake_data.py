"""The world's base data: airports, and the sandbox bookings a person can look up without a scenario.

Seeded Faker and random generators make the same names, flights and codes on every machine.
"""
from __future__ import annotations

import datetime as dt
import random

from faker import Faker
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .airports import offered_airports
from .db import write_transaction
from .models import SANDBOX, Airport, Booking
from .services.bookings import new_booking, new_code
from .services.dates import Calendar
from .services.flights import flights_on
from .services.validation import GENDERS

ROUND_TRIP_SHARE = 0.7  # of generated bookings and scenarios
TEST_CARDS = ("4111111111111111", "5555555555554444", "378282246310005", "6011111111111117")
TITLES_BY_GENDER = {"Male": ("Mr", "Dr"), "Female": ("Mrs", "Ms", "Miss", "Dr"), "Other": ("Dr", "Mr", "Ms")}


def seed_airports(session: Session) -> None:
    try:
        with write_transaction(session):
            if session.scalar(select(func.count()).select_from(Airport)) == 0:
                session.add_all(Airport(**row) for row in offered_airports())
    except IntegrityError:
        pass  # a server started at the same time stored them first


def _sandbox_count(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(Booking).where(Booking.dataset == SANDBOX))


def fake_person(rng: random.Random, faker: Faker, today: dt.date) -> dict:
    gender = rng.choice(GENDERS)
    first = faker.first_name_male() if gender == "Male" else faker.first_name_female() if gender == "Female" else faker.first_name()
    last = faker.last_name()
    born = today - dt.timedelta(days=rng.randint(18 * 365, 80 * 365))
    return {
        "title": rng.choice(TITLES_BY_GENDER[gender]), "first_name": first, "last_name": last,
        "email": f"{first}.{last}@example.com".lower().replace(" ", "").replace("'", ""),
        "gender": gender, "date_of_birth": born.isoformat(),
    }


def fake_card(rng: random.Random, person: dict, today: dt.date) -> dict:
    expiry_year = (today.year + rng.randint(1, 5)) % 100
    return {"card_number": rng.choice(TEST_CARDS), "expiry": f"{rng.randint(1, 12):02d}/{expiry_year:02d}",
            "security_code": f"{rng.randint(100, 999)}",
            "name_on_card": f"{person['first_name']} {person['last_name']}"}


def fake_trip(session: Session, calendar: Calendar, world_seed: int, rng: random.Random, round_trip: bool):
    """Random outward (and return) flights on a random route inside the sellable window."""
    origin, destination = rng.sample([row["code"] for row in offered_airports()], 2)
    depart = calendar.today + dt.timedelta(days=rng.randint(7, calendar.sellable_days - 30))
    outward = rng.choice(flights_on(session, calendar, world_seed, origin, destination, depart))
    if not round_trip:
        return outward, None
    back_day = depart + dt.timedelta(days=rng.randint(2, 21))
    back = rng.choice(flights_on(session, calendar, world_seed, destination, origin, back_day))
    return outward, back


def seed_sandbox(session: Session, calendar: Calendar, world_seed: int, count: int) -> None:
    """Fill the shared sandbox with bookings once, in one transaction (all or none), so that a
    later start that finds them can trust they are complete. Of servers started at once, the
    first to commit fills it; the others find it filled and add nothing."""
    if _sandbox_count(session):
        return
    rng, faker = random.Random(f"{world_seed}:sandbox"), Faker("en_US")
    faker.seed_instance(world_seed)
    bookings = []
    for _ in range(count):
        person = fake_person(rng, faker, calendar.today)
        outward, back = fake_trip(session, calendar, world_seed, rng, round_trip=rng.random() < ROUND_TRIP_SHARE)
        bookings.append(new_booking(session, calendar, SANDBOX, outward.id, back.id if back else None, person,
                                    fake_card(rng, person, calendar.today), code=new_code(rng)))
    try:
        with write_transaction(session):
            if not _sandbox_count(session):
                session.add_all(bookings)
    except IntegrityError:
        pass  # a concurrent start committed the same bookings first
