from __future__ import annotations

from flask import request

from ..db import get_session
from ..request_guard import json_body
from ..scope import booking_code_source, current_dataset
from ..services import bookings as booking_service
from ..services.disruptions import statuses
from ..services.numbers import parse_id
from ..services.validation import check_passenger
from ..suite_look import current_look
from .blueprint import api, calendar
from .idempotency import idempotent
from .views import (booking_json, booking_match_json, booking_policy_json, change_quote_json, flight_status_json,
                    passenger_json)


def _answer(booking) -> dict:
    """A booking as the API answers it; with its fare, policy terms and its flights' status where
    the CRM has a policy."""
    shown = booking_json(booking)
    if current_look().airline_policy:
        session = get_session()
        found = statuses(session, booking.dataset, [segment.flight_id for segment in booking.segments])
        shown["flights"] = [{**flight, **flight_status_json(flight["id"], found)} for flight in shown["flights"]]
        shown.update(booking_policy_json(booking, calendar().now, booking_service.disruption_of(session, booking, found),
                                         booking_service.waiver_of(session, booking)))
    return {"booking": shown}


@api.post("/passenger/validate")
def validate_passenger():
    body = json_body()
    return {"passenger": passenger_json(check_passenger(body.get("passenger"), calendar().today))}


@api.post("/bookings")
@idempotent
def create_booking():
    body = json_body()
    session = get_session()
    booking = booking_service.book(
        session, calendar(), current_dataset(session),
        body.get("outward_flight_id"), body.get("return_flight_id"),
        body.get("passenger"), body.get("payment"), body.get("fare"), booking_code_source(session),
    )
    return _answer(booking), 201


@api.get("/bookings")
def search_bookings():
    session = get_session()
    found = booking_service.search_bookings(session, current_dataset(session), request.args.get("last_name"),
                                            request.args.get("date"))
    return {"bookings": [booking_match_json(booking) for booking in found]}


@api.get("/bookings/<code>")
def get_booking(code: str):
    session = get_session()
    return _answer(booking_service.find_booking(session, current_dataset(session), code))


@api.post("/bookings/<code>/cancel")
@idempotent
def cancel_booking(code: str):
    body = json_body()
    session = get_session()
    booking = booking_service.cancel(session, current_dataset(session), code, body.get("confirmation_code"))
    return _answer(booking)


@api.patch("/bookings/<code>/passenger")
@idempotent
def update_passenger(code: str):
    body = json_body()
    changes = body.get("passenger", body)
    session = get_session()
    booking = booking_service.update_passenger(session, calendar(), current_dataset(session), code, changes)
    return _answer(booking)


@api.put("/bookings/<code>/flights")
@idempotent
def change_flights(code: str):
    body = json_body()
    session = get_session()
    booking = booking_service.change_flights(
        session, calendar(), current_dataset(session), code,
        body.get("outward_flight_id"), body.get("return_flight_id"))
    return _answer(booking)


@api.post("/bookings/<code>/fare")
@idempotent
def upgrade_fare(code: str):
    """Raise the booking's fare family (Basic to Standard to Flex), paying the difference."""
    session = get_session()
    booking = booking_service.upgrade_fare(session, current_dataset(session), code, json_body().get("fare"))
    return _answer(booking)


@api.get("/bookings/<code>/fare/quote")
def quote_fare_upgrade(code: str):
    """What raising the booking's fare family to ?fare= would cost, before doing it."""
    session = get_session()
    quote = booking_service.fare_upgrade_quote(session, calendar(), current_dataset(session), code,
                                               request.args.get("fare"))
    return {**change_quote_json(quote), "fare": quote["fare"], "policy": quote["terms"].answer()}


@api.get("/bookings/<code>/flights/quote")
def quote_flight_change(code: str):
    """What changing the booking to the given flights would cost, before saving it."""
    session = get_session()
    quote = booking_service.change_quote(session, calendar(), current_dataset(session), code,
                                         parse_id(request.args.get("outward")), parse_id(request.args.get("return")))
    shown = change_quote_json(quote)
    if current_look().airline_policy:
        shown["policy"] = quote["terms"].answer()
    return shown
