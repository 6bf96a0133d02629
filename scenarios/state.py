"""A scenario's bookings as plain comparable data, read from the database or from its setup.

Two states are compared booking by booking: status, trip type, flights (number and date per
direction), passenger fields and card (last four digits, expiry, name, and which of the scenario's
known card numbers it is). Bookings that are not in the initial state are compared as an unordered
list, because their codes are drawn at random when they are made.
"""
from __future__ import annotations

import json
from collections import defaultdict

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from crm_app.db import card_hasher
from crm_app.models import Booking, Flight, Passenger, Payment, Segment
from crm_app.services.fares import STANDARD
from crm_app.services.validation import PASSENGER_FIELDS


def booking_state(status: str, trip_type: str, legs, passenger: dict, card: dict, fare: str = STANDARD) -> dict:
    """`legs` holds (direction, flight number, ISO date); `card` holds last4, expiry, name_on_card, number."""
    return {
        "status": status,
        "trip_type": trip_type,
        "flights": flights_state(legs),
        "passenger": {field: passenger_value(field, passenger[field]) for field in PASSENGER_FIELDS},
        "card": {key: card.get(key) for key in ("last4", "expiry", "name_on_card", "number")},
        "fare": fare,
    }


def flights_state(legs) -> dict:
    """The `flights` part of a booking's state from (direction, flight number, ISO date) legs."""
    return {direction: {"number": number, "date": str(date)} for direction, number, date in legs}


def passenger_value(field: str, value) -> str:
    text = str(value).strip()
    return text.lower() if field == "email" else text  # addresses are case-insensitive


# Built once (bound by dataset): /evaluate reads a state on every call, and a statement reused
# keeps its compiled form instead of being built and keyed again.
_PEOPLE = (select(Booking.id, Booking.code, Booking.status, Booking.trip_type, Booking.fare,
                  Payment.card_last4, Payment.card_salt, Payment.card_hash, Payment.expiry, Payment.name_on_card,
                  *(getattr(Passenger, field) for field in PASSENGER_FIELDS))
           .join(Payment, Payment.booking_id == Booking.id).join(Passenger, Passenger.booking_id == Booking.id)
           .where(Booking.dataset == bindparam("dataset")).order_by(Booking.id, Passenger.id))
_LEGS = (select(Segment.booking_id, Segment.direction, Flight.number, Flight.departure_date)
         .join(Flight, Flight.id == Segment.flight_id).join(Booking, Booking.id == Segment.booking_id)
         .where(Booking.dataset == bindparam("dataset")).order_by(Segment.booking_id, Segment.position))


def dataset_state(session: Session, dataset: str, card_numbers=()) -> dict[str, dict]:
    """The bookings of one dataset; a card is named by whichever of `card_numbers` it matches.
    Read as plain rows in two queries (bookings with their first passenger and payment; their
    flights): /evaluate reads it on every call."""
    connection = session.connection()
    people = connection.execute(_PEOPLE, {"dataset": dataset})
    legs = defaultdict(list)
    for booking_id, direction, number, date in connection.execute(_LEGS, {"dataset": dataset}):
        legs[booking_id].append((direction, number, date.isoformat()))
    hasher = card_hasher(session)
    state = {}
    for row in people:
        if row.code not in state:  # a booking's first passenger is its passenger
            state[row.code] = _from_row(row, legs[row.id], card_numbers, hasher)
    return state


def cards_by_position(state: dict, card_numbers) -> dict:
    """The state with each card named by its place among `card_numbers` (None for none), not by its
    number: the form a state is kept in at rest (card numbers are never stored in the clear)."""
    numbers = list(card_numbers)
    return _cards_renamed(state, lambda number: numbers.index(number) if number in numbers else None)


def cards_by_number(state: dict, card_numbers) -> dict:
    """A state kept by cards_by_position, its cards named by number again."""
    numbers = list(card_numbers)
    return _cards_renamed(state, lambda position: None if position is None else numbers[position])


def _cards_renamed(state: dict, rename) -> dict:
    return {code: {**booking, "card": {**booking["card"], "number": rename(booking["card"]["number"])}}
            for code, booking in state.items()}


def _from_row(row, legs, card_numbers, hasher) -> dict:
    number = next((n for n in card_numbers if Payment.stored_card_matches(row.card_salt, row.card_hash, n, hasher)),
                  None)
    card = {"last4": row.card_last4, "expiry": row.expiry, "name_on_card": row.name_on_card, "number": number}
    return booking_state(row.status, row.trip_type, legs, {field: getattr(row, field) for field in PASSENGER_FIELDS},
                         card, row.fare)


def planned_state(status: str, legs, passenger: dict, card: dict, fare: str = STANDARD) -> dict:
    """The state of a booking made from (direction, flight number, ISO date) legs, and passenger
    fields and a card as the API takes them, in a fare family; a second leg makes it a return trip."""
    number = card["card_number"]
    return booking_state(status, "return" if len(legs) > 1 else "oneway", legs, passenger,
                         {"last4": number[-4:], "expiry": card["expiry"], "name_on_card": card["name_on_card"],
                          "number": number}, fare)


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
    for part in ("trip_type", "flights", "passenger", "card", "fare"):
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
