"""A scenario's bookings as plain comparable data, read from the database or from its setup.

Two states are compared booking by booking: status, trip type, flights (number and date per
direction), passenger fields and card (last four digits, expiry, name, and which of the scenario's
known card numbers it is). Bookings that are not in the initial state are compared as an unordered
list, because their codes are drawn at random when they are made.
"""
from __future__ import annotations

import json

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from crm_app.db import card_hasher
from crm_app.models import Booking
from crm_app.services.validation import PASSENGER_FIELDS


def booking_state(status: str, trip_type: str, legs, passenger: dict, card: dict) -> dict:
    """`legs` holds (direction, flight number, ISO date); `card` holds last4, expiry, name_on_card, number."""
    return {
        "status": status,
        "trip_type": trip_type,
        "flights": flights_state(legs),
        "passenger": {field: passenger_value(field, passenger[field]) for field in PASSENGER_FIELDS},
        "card": {key: card.get(key) for key in ("last4", "expiry", "name_on_card", "number")},
    }


def flights_state(legs) -> dict:
    """The `flights` part of a booking's state from (direction, flight number, ISO date) legs."""
    return {direction: {"number": number, "date": str(date)} for direction, number, date in legs}


def passenger_value(field: str, value) -> str:
    text = str(value).strip()
    return text.lower() if field == "email" else text  # addresses are case-insensitive


def dataset_state(session: Session, dataset: str, card_numbers=()) -> dict[str, dict]:
    """The bookings of one dataset; a card is named by whichever of `card_numbers` it matches."""
    statement = (
        select(Booking).where(Booking.dataset == dataset).order_by(Booking.id)
        .options(selectinload(Booking.segments), selectinload(Booking.passengers), selectinload(Booking.payment))
    )
    hasher = card_hasher(session)
    return {booking.code: _from_row(booking, card_numbers, hasher) for booking in session.scalars(statement)}


def _from_row(booking: Booking, card_numbers, hasher) -> dict:
    payment = booking.payment
    person = booking.passenger
    legs = [(s.direction, s.flight.number, s.flight.departure_date.isoformat()) for s in booking.segments]
    number = next((n for n in card_numbers if payment.card_matches(n, hasher)), None)
    card = {"last4": payment.card_last4, "expiry": payment.expiry, "name_on_card": payment.name_on_card,
            "number": number}
    return booking_state(booking.status, booking.trip_type, legs,
                         {field: getattr(person, field) for field in PASSENGER_FIELDS}, card)


def planned_state(status: str, legs, passenger: dict, card: dict) -> dict:
    """The state of a booking made from (direction, flight number, ISO date) legs, and passenger
    fields and a card as the API takes them; a second leg makes it a return trip."""
    number = card["card_number"]
    return booking_state(status, "return" if len(legs) > 1 else "oneway", legs, passenger,
                         {"last4": number[-4:], "expiry": card["expiry"], "name_on_card": card["name_on_card"],
                          "number": number})


def difference(final: dict, expected: dict, initial_codes) -> str | None:
    """What keeps `final` from equaling `expected`, in words; None when they are the same."""
    for code in sorted(initial_codes):
        if code not in final:
            return f"booking {code} is gone"
        reason = booking_difference(f"booking {code}", final[code], expected[code])
        if reason:
            return reason
    made = sorted(_key(b) for c, b in final.items() if c not in initial_codes)
    wanted = sorted(_key(b) for c, b in expected.items() if c not in initial_codes)
    if made == wanted:
        return None
    if len(made) > len(wanted):
        return f"{len(made)} new bookings were made, expected {len(wanted)}"
    if len(made) < len(wanted):
        return "no booking was made" if not made else f"only {len(made)} new bookings were made"
    if len(made) == 1:
        return booking_difference("the new booking", json.loads(made[0]), json.loads(wanted[0]))
    return "the new bookings differ from the expected ones"


def _key(booking: dict) -> str:
    return json.dumps(booking, sort_keys=True)


def booking_difference(name: str, actual: dict | None, wanted: dict) -> str | None:
    """The first way `actual` differs from `wanted`, as a sentence about `name` ("booking GWHVKK")."""
    if actual is None:
        return f"{name} does not exist"
    if actual["status"] != wanted["status"]:
        return f"{name} is still active" if wanted["status"] == "Cancelled" else f"{name} was cancelled"
    for part in ("trip_type", "flights", "passenger", "card"):
        if actual[part] == wanted[part]:
            continue
        if isinstance(wanted[part], dict):
            for key in sorted(set(wanted[part]) | set(actual[part])):
                got, want = actual[part].get(key), wanted[part].get(key)
                if got != want:
                    return f"{name}: {part} {key} is {_shown(got)}, expected {_shown(want)}"
        return f"{name}: {part} is {_shown(actual[part])}, expected {_shown(wanted[part])}"
    return None


def _shown(value) -> str:
    if isinstance(value, dict):
        return " ".join(str(v) for v in value.values())
    return "none" if value is None else repr(value) if isinstance(value, str) else str(value)
