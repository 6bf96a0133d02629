"""Airport lookup and flight search. A route-day's flights are stored the first time it is searched."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from ..airports import code_from_label
from ..db import write_transaction
from ..models import Airport, Flight, RouteDay
from .dates import Calendar, parse_date
from .errors import InvalidInput, NotFound
from .schedule import Place, plan_day


def find_airports(session: Session, query: str = "") -> list[Airport]:
    """Airports whose code, city or name contains the query; exact code matches first."""
    text = (query or "").strip()
    statement = select(Airport).order_by(Airport.city, Airport.code)
    if text:
        pattern = f"%{text}%"
        statement = statement.where(
            or_(Airport.code.ilike(pattern), Airport.city.ilike(pattern), Airport.name.ilike(pattern))
        )
    airports = list(session.scalars(statement))
    return sorted(airports, key=lambda a: (a.code != text.upper(), not a.city.lower().startswith(text.lower())))


def airport_code(session: Session, value, label: str, field: str | None = None) -> str:
    """The IATA code of an offered airport, from a code or a label like 'New York, NY (JFK)'."""
    text = value.strip() if isinstance(value, str) else ""
    code = code_from_label(text)
    if not text:
        message = f"Enter the {label} airport"
    elif session.get(Airport, code) is None:
        message = f"Unknown airport: {text}"
    else:
        return code
    raise InvalidInput(message, {field: message} if field else None)


def search(session: Session, calendar: Calendar, seed: int, origin, destination, day) -> list[Flight]:
    """The flights of one route on one day, validated as a person would type them."""
    origin_code = airport_code(session, origin, "departure", "from")
    destination_code = airport_code(session, destination, "arrival", "to")
    if origin_code == destination_code:
        raise InvalidInput("From and To must be different airports", {"to": "Choose a different airport"})
    date = calendar.check_sellable(parse_date(day, "Departure date", "date"), "Departure date", "date")
    return flights_on(session, calendar, seed, origin_code, destination_code, date)


def search_return(session: Session, calendar: Calendar, seed: int, origin, destination, day, return_day):
    """Both legs of a return trip; the return may not be before the departure."""
    outward = search(session, calendar, seed, origin, destination, day)
    back_date = calendar.check_sellable(parse_date(return_day, "Return date", "return"), "Return date", "return")
    if back_date < outward[0].departure_date:
        message = "Return date must not be before the departure date"
        raise InvalidInput(message, {"return": message})
    back = flights_on(session, calendar, seed, outward[0].destination, outward[0].origin, back_date)
    return outward, back


def flights_on(session: Session, calendar: Calendar, seed: int, origin: str, destination: str, day: dt.date) -> list[Flight]:
    statement = (
        select(Flight)
        .where(Flight.origin == origin, Flight.destination == destination, Flight.departure_date == day)
        .order_by(Flight.departure_minute)
    )
    flights = list(session.scalars(statement))
    if not flights:
        _store_route_day(session, calendar, seed, origin, destination, day)
        flights = list(session.scalars(statement))
    return flights


def get_flight(session: Session, flight_id, label: str) -> Flight:
    flight = session.get(Flight, flight_id) if isinstance(flight_id, int) and not isinstance(flight_id, bool) else None
    if flight is None:
        raise InvalidInput(f"Choose the {label} flight", {f"{label}_flight_id": f"Choose the {label} flight"})
    return flight


def _store_route_day(session: Session, calendar: Calendar, seed: int, origin: str, destination: str, day: dt.date) -> None:
    places = [_place(session.get(Airport, code)) for code in (origin, destination)]
    plans = plan_day(seed, places[0], places[1], day, calendar.today)
    with write_transaction(session):
        if session.get(RouteDay, (origin, destination, day)) is not None:
            return  # another request stored the same route-day first: theirs is identical
        session.add(RouteDay(origin=origin, destination=destination, day=day))
        session.add_all(Flight(origin=origin, destination=destination, **vars(plan)) for plan in plans)


def _place(airport: Airport) -> Place:
    if airport is None:
        raise NotFound("Unknown airport")
    return Place(airport.code, airport.timezone, airport.latitude, airport.longitude)
