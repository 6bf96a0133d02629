"""Airport lookup and flight search. A route-day's flights are stored the first time it is searched."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from ..airports import OFFERED_CODES, US_STATE_CODES, code_from_label
from ..db import write_transaction
from ..models import Airport, Flight, RouteDay
from .dates import Calendar, parse_date
from .errors import InvalidInput, NotFound, excerpt, form_error
from .numbers import is_row_id
from .schedule import Place, plan_day
from .validation import column_length


LONGEST_AIRPORT_TEXT = column_length(Airport.name)


def find_airports(session: Session, query: str = "") -> list[Airport]:
    """Airports whose code, city or name contains the query (taken literally: % and _ are plain
    characters); exact code matches first."""
    text = (query or "").strip()
    if len(text) > LONGEST_AIRPORT_TEXT:
        return []  # contained in no code, city or name
    statement = select(Airport)
    if text:
        pattern = "%" + re.sub(r"([\\%_])", r"\\\1", text) + "%"
        statement = statement.where(or_(*(column.ilike(pattern, escape="\\")
                                          for column in (Airport.code, Airport.city, Airport.name))))
    # Sorted here, not by the database: its collation (say, en_US ignoring spaces) is not SQLite's.
    return sorted(session.scalars(statement), key=lambda a: (a.code != text.upper(),
                                                            not a.city.lower().startswith(text.lower()), a.city, a.code))


def airports_by_state(session: Session) -> list[tuple[str, list[Airport]]]:
    """Every airport under its state's name, states and their airports in alphabetical order (a
    select grouped by state, in some UI variants)."""
    state_names = {code: name for name, code in US_STATE_CODES.items()}
    groups: dict[str, list[Airport]] = {}
    for airport in session.scalars(select(Airport)):
        groups.setdefault(state_names.get(airport.region, airport.region), []).append(airport)
    return [(state, sorted(found, key=lambda a: (a.city, a.code))) for state, found in sorted(groups.items())]


def airport_code(value, label: str) -> str:
    """The IATA code of an offered airport, from a code or a label like 'New York, NY (JFK)'."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise InvalidInput(f"Enter the {label} airport")
    code = code_from_label(text)
    if code not in OFFERED_CODES:  # the airports table holds exactly these (fake_data.seed_airports)
        raise InvalidInput(f"Unknown airport: {excerpt(text)}")
    return code


SEARCH_LABELS = {"from": "From", "to": "To", "date": "Departure date", "return": "Return date"}


@dataclass(frozen=True)
class Search:
    """A checked flight search: two different offered airports and sellable dates."""

    origin: str
    destination: str
    day: dt.date
    return_day: dt.date | None = None


def check_search(session: Session, calendar: Calendar, origin, destination, day, return_day=None) -> Search:
    """Every wrong field of a search at once, each with one message (see errors.form_error)."""
    errors: dict[str, str] = {}

    def checked(field: str, check):
        try:
            return check()
        except InvalidInput as error:
            errors[field] = error.message
            return None

    origin_code = checked("from", lambda: airport_code(origin, "departure"))
    destination_code = checked("to", lambda: airport_code(destination, "arrival"))
    if origin_code and origin_code == destination_code:
        errors["to"] = "From and To must be different airports"
    date = checked("date", lambda: _sellable(calendar, day, "Departure date"))
    back = None
    if return_day is not None:
        back = checked("return", lambda: _sellable(calendar, return_day, "Return date"))
        if date and back and back < date:
            errors["return"] = "Return date must not be before the departure date"
    if errors:
        raise form_error(errors, SEARCH_LABELS)
    return Search(origin_code, destination_code, date, back)


def _sellable(calendar: Calendar, value, label: str) -> dt.date:
    return calendar.check_sellable(parse_date(value, label), label)


def search(session: Session, calendar: Calendar, seed: int, origin, destination, day) -> list[Flight]:
    """The flights of one route on one day, validated as a person would type them."""
    found = check_search(session, calendar, origin, destination, day)
    return flights_on(session, calendar, seed, found.origin, found.destination, found.day)


def search_return(session: Session, calendar: Calendar, seed: int, origin, destination, day, return_day):
    """Both legs of a return trip; the return may not be before the departure."""
    found = check_search(session, calendar, origin, destination, day, return_day)
    outward = flights_on(session, calendar, seed, found.origin, found.destination, found.day)
    back = flights_on(session, calendar, seed, found.destination, found.origin, found.return_day)
    return outward, back


def flights_on(session: Session, calendar: Calendar, seed: int, origin: str, destination: str, day: dt.date) -> list[Flight]:
    return flights_on_days(session, calendar, seed, origin, destination, [day])[0]


def flights_on_days(session: Session, calendar: Calendar, seed: int, origin: str, destination: str,
                    days: list[dt.date]) -> list[list[Flight]]:
    """The flights of one route on each of `days`, each day's by departure time. Route-days not
    generated yet are stored together, in one write (a scenario that looks at two weeks of a route
    pays one transaction, not fourteen)."""
    found = _flights_of_days(session, origin, destination, days)
    missing = sorted({day for day in days if not found.get(day)})
    if missing:
        _store_route_days(session, calendar, seed, origin, destination, missing)
        found.update(_flights_of_days(session, origin, destination, missing))
    return [found.get(day, []) for day in days]


def _flights_of_days(session: Session, origin: str, destination: str, days) -> dict[dt.date, list[Flight]]:
    statement = (
        select(Flight)
        .where(Flight.origin == origin, Flight.destination == destination, Flight.departure_date.in_(set(days)))
        .order_by(Flight.departure_date, Flight.departure_minute)
    )
    by_day: dict[dt.date, list[Flight]] = {}
    for flight in session.scalars(statement):
        by_day.setdefault(flight.departure_date, []).append(flight)
    return by_day


def get_flight(session: Session, flight_id, label: str) -> Flight:
    flight = session.get(Flight, flight_id) if is_row_id(flight_id) else None
    if flight is None:
        raise InvalidInput(f"Choose the {label} flight", {f"{label}_flight_id": f"Choose the {label} flight"})
    return flight


def _store_route_days(session: Session, calendar: Calendar, seed: int, origin: str, destination: str,
                      days: list[dt.date]) -> None:
    places = [_place(session.get(Airport, code)) for code in (origin, destination)]
    locks = [f"route-day:{origin}:{destination}:{day}" for day in days]
    with write_transaction(session, *locks):
        stored = set(session.scalars(select(RouteDay.day).where(
            RouteDay.origin == origin, RouteDay.destination == destination, RouteDay.day.in_(days))))
        for day in days:
            if day in stored:
                continue  # another request stored the same route-day first: theirs is identical
            session.add(RouteDay(origin=origin, destination=destination, day=day))
            session.add_all(Flight(origin=origin, destination=destination, **vars(plan))
                            for plan in plan_day(seed, places[0], places[1], day, calendar.today))


def _place(airport: Airport) -> Place:
    if airport is None:
        raise NotFound("Unknown airport")
    return Place(airport.code, airport.timezone, airport.latitude, airport.longitude)
