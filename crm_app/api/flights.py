from __future__ import annotations

from flask import request

from ..db import get_session
from ..scope import current_dataset
from ..services import flights as flight_service
from ..services.bookings import check_itinerary, itinerary_lines
from ..services.disruptions import statuses
from ..services.fares import check_fare
from ..services.numbers import parse_id
from ..suite_look import current_look
from .blueprint import api, calendar, world_seed
from .views import fares_json, flight_json, flight_status_json, lines_json


@api.get("/flights/search")
def search_flights():
    args = request.args
    session = get_session()
    if args.get("return"):
        outward, back = flight_service.search_return(
            session, calendar(), world_seed(), args.get("from"), args.get("to"), args.get("date"), args.get("return"))
        return {**_route_json(outward), "return_date": back[0].departure_date.isoformat(),
                "return_flights": _flights_json(back)}
    outward = flight_service.search(session, calendar(), world_seed(), args.get("from"), args.get("to"), args.get("date"))
    return _route_json(outward)


@api.get("/quote")
def quote():
    """Price lines and total for chosen flights (in a fare family, Standard by default), before booking."""
    outward, back = check_itinerary(get_session(), calendar(), _flight_id("outward"), _flight_id("return"))
    return lines_json(itinerary_lines(outward, back, check_fare(request.args.get("fare"))))


def _flight_id(name: str):
    """The id as the booking body would carry it (get_flight refuses anything else by name)."""
    return parse_id(request.args.get(name))


def _route_json(flights) -> dict:
    first = flights[0]
    return {"from": first.origin, "to": first.destination, "date": first.departure_date.isoformat(),
            "flights": _flights_json(flights)}


def _flights_json(flights) -> list[dict]:
    """Flights as a search lists them; with their fare families' prices and their status (in the
    request's dataset) where the CRM has the airline's policy."""
    if not current_look().airline_policy:
        return [flight_json(f) for f in flights]
    session = get_session()
    found = statuses(session, current_dataset(session), [f.id for f in flights])
    return [{**flight_json(f), **fares_json(f), **flight_status_json(f.id, found)} for f in flights]
