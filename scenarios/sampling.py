"""Seeded draws for scenarios: people, cards, codes and flights that really exist.

Everything comes from generators seeded with the task and the scenario seed, and flights come
from `flights_on`, which is itself a pure function of the world seed; so a scenario is the same
on every machine with the same settings.
"""
from __future__ import annotations

import datetime as dt
import random
import threading
from collections import Counter
from dataclasses import dataclass, field

from faker import Faker
from sqlalchemy.orm import Session

from crm_app.fake_data import ROUND_TRIP_SHARE, fake_card, fake_person, fake_trip
from crm_app.models import Flight
from crm_app.services.bookings import new_code
from crm_app.services.dates import Calendar
from crm_app.services.fares import STANDARD
from crm_app.services.flights import flights_on
from crm_app.services.schedule import clock_time, departure_moment


MAX_REDRAWS = 50


@dataclass(frozen=True)
class ChosenFlight:
    """A flight a scenario names, as plain values: a drawn scenario keeps nothing tied to the
    database session that loaded it, so a server process can keep it for later requests."""

    id: int
    number: str
    origin: str
    destination: str
    departure_date: dt.date
    departure_minute: int
    arrival_minute: int
    price_cents: int  # the listed (Standard) price

    @classmethod
    def of(cls, flight: Flight) -> ChosenFlight:
        return cls(flight.id, flight.number, flight.origin, flight.destination, flight.departure_date,
                   flight.departure_minute, flight.arrival_minute, flight.price_cents)

    @property
    def departs_at(self) -> dt.datetime:
        return departure_moment(self.departure_date, self.departure_minute)


@dataclass(frozen=True)
class Trip:
    outward: ChosenFlight
    back: ChosenFlight | None = None

    def legs(self) -> list[tuple[str, ChosenFlight]]:
        """(direction, flight) of the outward flight and, on a return trip, the return flight."""
        return [(direction, flight) for direction, flight in (("outward", self.outward), ("return", self.back))
                if flight is not None]

    def state_legs(self) -> list[tuple[str, str, str]]:
        """(direction, flight number, ISO date) of each leg, as `state.planned_state` takes them."""
        return [(direction, flight.number, flight.departure_date.isoformat()) for direction, flight in self.legs()]


@dataclass(frozen=True)
class SetupBooking:
    """A booking a scenario starts with, in the shapes `bookings.book` takes."""

    code: str
    trip: Trip
    passenger: dict
    card: dict
    fare: str = STANDARD  # its fare family (crm_app/services/fares.py)
    booked_at: dt.datetime | None = None  # None: when the scenario is made (the simulated clock's now)
    notes: str | None = None  # the booking's special requests (the expert suite's planted instructions)


@dataclass(frozen=True)
class SetupDisruption:
    """A flight the airline cancelled or delayed in a scenario (crm_app/services/disruptions.py)."""

    flight: ChosenFlight
    status: str  # "Cancelled" or "Delayed"
    delay_minutes: int = 0


@dataclass
class Draw:
    """The random sources and the flight timetable one scenario is drawn from."""

    session: Session
    calendar: Calendar
    world_seed: int
    task: str
    seed: int
    round_trips_only: bool = False  # the suite's (scenarios/suites.py)
    flight_numbers: bool = True  # whether the texts name the flights' numbers
    rng: random.Random = field(init=False)
    text_rng: random.Random = field(init=False)
    faker: Faker = field(init=False)

    def __post_init__(self):
        self.rng = random.Random(f"{self.task}:{self.seed}")
        # Wording has its own generator so that rephrasing never changes the details.
        self.text_rng = random.Random(f"{self.task}:text:{self.seed}")
        self.faker = _thread_faker()
        self.faker.seed_instance(f"{self.task}:{self.seed}")  # its whole state: the draw owes nothing to the last one

    def round_trip(self) -> bool:
        drawn = self.rng.random() < ROUND_TRIP_SHARE  # drawn either way: the later draws stay the same
        return drawn or self.round_trips_only

    def trip(self, round_trip: bool) -> Trip:
        outward, back = fake_trip(self.session, self.calendar, self.world_seed, self.rng, round_trip)
        if back is not None and not self.flight_numbers:
            # Some route-days have no flight a text can name by its arrival (every one arrives
            # overnight): the trip is drawn again, from the same generator, so still by the seed.
            for _ in range(MAX_REDRAWS):
                named = self._told_apart_by_arrival(back)
                if named is not None:
                    back = named
                    break
                outward, back = fake_trip(self.session, self.calendar, self.world_seed, self.rng, round_trip)
            else:
                raise RuntimeError(f"no return flight named by its arrival in {MAX_REDRAWS} draws")
        return Trip(ChosenFlight.of(outward), ChosenFlight.of(back) if back is not None else None)

    def _told_apart_by_arrival(self, flight: Flight) -> Flight | None:
        """Texts without flight numbers name the return flight by its date and arrival time (as the
        papers' instructions and the authors' client do: "returning on <date> at <arrival>"), so it
        must arrive on the day it leaves (an overnight flight arrives on the next date, which the
        text would not name) and be the only flight of its day arriving then; departure times are
        distinct already. `flight` when it is such a flight, else one of its day that is, else None."""
        same_day = flights_on(self.session, self.calendar, self.world_seed, flight.origin, flight.destination,
                              flight.departure_date)
        arrivals = Counter(other.arrival_minute for other in same_day)
        named = [other for other in same_day
                 if other.arrival_date == other.departure_date and arrivals[other.arrival_minute] == 1]
        if flight in named:
            return flight
        return self.rng.choice(named) if named else None

    def moved_trip(self, trip: Trip) -> Trip:
        """The same route on new dates: both the departure and the return day differ from `trip`'s."""
        old_out = trip.outward.departure_date
        depart = old_out + dt.timedelta(days=self.rng.choice([d for d in range(-6, 8) if d]))
        outward = self._flight_on(trip.outward.origin, trip.outward.destination, depart)
        if trip.back is None:
            return Trip(outward)
        stays = [d for d in range(2, 15) if depart + dt.timedelta(days=d) != trip.back.departure_date]
        back_day = depart + dt.timedelta(days=self.rng.choice(stays))
        return Trip(outward, self._flight_on(trip.back.origin, trip.back.destination, back_day))

    def _flight_on(self, origin: str, destination: str, day: dt.date) -> ChosenFlight:
        return ChosenFlight.of(self.rng.choice(flights_on(self.session, self.calendar, self.world_seed,
                                                          origin, destination, day)))

    def person(self) -> dict:
        return fake_person(self.rng, self.faker, self.calendar.today)

    def card(self, person: dict) -> dict:
        return fake_card(self.rng, person, self.calendar.today)

    def code(self) -> str:
        return new_code(self.rng)

    def booking(self) -> SetupBooking:
        """A random existing booking for a task that starts from one."""
        person = self.person()
        trip = self.trip(self.round_trip())
        return SetupBooking(self.code(), trip, person, self.card(person))


_FAKERS = threading.local()


def _thread_faker() -> Faker:
    """This thread's Faker: making one takes milliseconds, and scenarios are drawn on every
    generate, reset and evaluate; a draw runs on one thread, so no other draw reseeds it meanwhile."""
    if not hasattr(_FAKERS, "faker"):
        _FAKERS.faker = Faker("en_US")
    return _FAKERS.faker


def flight_details(trip: Trip) -> dict:
    """The `flight` part of a scenario's details: route, dates, times and flight numbers."""
    outward, back = trip.outward, trip.back
    details = {"from": outward.origin, "to": outward.destination, "departure": outward.departure_date.isoformat()}
    if back is not None:
        details["return"] = back.departure_date.isoformat()
    legs = trip.legs()
    for direction, flight in legs:
        details[f"{direction}-departure-time"] = clock_time(flight.departure_minute)
        details[f"{direction}-arrival-time"] = clock_time(flight.arrival_minute)
    for direction, flight in legs:
        details[f"{direction}-flight-number"] = flight.number
    return details


def passenger_details(person: dict) -> dict:
    """A passenger as the `passenger` part of details names its fields."""
    return {"title": person["title"], "firstname": person["first_name"], "lastname": person["last_name"],
            "gender": person["gender"], "dob": person["date_of_birth"], "email": person["email"]}


def payment_details(card: dict) -> dict:
    return {"card-number": card["card_number"], "expiry": card["expiry"],
            "security_code": card["security_code"], "name-on-card": card["name_on_card"]}
