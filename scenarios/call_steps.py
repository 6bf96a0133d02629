"""Gold API calls: the lookups and writes the gold UI path makes, with their parameters, for
scoring an agent that works the JSON API instead of the page (tool calls, an MCP client).

A gold call is a plain dict, `{"operation": "cancel_booking", "params": {"code": "WQCWGR",
"confirmation_code": "WQCWGR"}}`, named and normalized as `calls.py` records the requests the
server answers, so a recorded call is compared with it directly. It names only what the task
decides: a booking's flights by number and date (`outward_flight`, `return_flight`), never by the
database's ids, and for a passenger change only the fields that change. Card data is plain here;
the evaluator protects it as recorded calls hold it (`protect_card_data`).

The UI's own checks on the way (`quote`, `validate_passenger`) are not gold calls: a client of the
API may book without them.
"""
from __future__ import annotations

from .calls import passenger_params, payment_params
from .card_data import Protect
from .steps import PASSENGER_KEYS
from .targets import normalize_kind

# A `payment` field of a call -> the page target whose protection it gets (card_data.protector).
CARD_TARGETS = {"card_number": "payment-card-number", "security_code": "payment-security-code"}
PAYMENT_KEYS = {"card-number": "card_number", "expiry": "expiry", "security_code": "security_code",
                "name-on-card": "name_on_card"}


def call(operation: str, **params) -> dict:
    return {"operation": operation, "params": params}


def search(flight: dict) -> dict:
    """The flight search of the details' route and dates; `return` None on a one-way trip (a
    recorded one-way search has no `return`)."""
    return call("search_flights", **{"from": flight["from"], "to": flight["to"], "date": flight["departure"],
                                     "return": flight.get("return")})


def search_bookings(last_name: str, date: str) -> dict:
    """The search for bookings by the passenger's last name and a travel date (the hard suite)."""
    return call("search_bookings", last_name=normalize_kind("text", last_name).lower(),
                date=normalize_kind("date", date))


def lookup(code: str) -> dict:
    return call("get_booking", code=_code(code))


def book(details: dict) -> dict:
    """The booking of the details' flights for its passenger, paid with its card."""
    person = {PASSENGER_KEYS[key]: value for key, value in details["passenger"].items()}
    card = {PAYMENT_KEYS[key]: value for key, value in details["payment-details"].items()}
    return call("create_booking", **_flights(details["flight"]), passenger=passenger_params(person),
                payment=payment_params(card))


def cancel(code: str) -> dict:
    return call("cancel_booking", code=_code(code), confirmation_code=_code(code))


def update(code: str, changes: dict) -> dict:
    """The passenger fields that change (details keys), by their API names."""
    person = {PASSENGER_KEYS[key]: value for key, value in changes.items()}
    return call("update_passenger", code=_code(code), passenger=passenger_params(person))


def change(code: str, flight: dict) -> dict:
    return call("change_flights", code=_code(code), **_flights(flight))


def upgrade(code: str, fare: str) -> dict:
    """Raising the booking's fare family (the hard suite), as the API records it."""
    return call("upgrade_fare", code=_code(code), fare=normalize_kind("text", fare))


def _flights(flight: dict) -> dict:
    back = {"number": flight["return-flight-number"], "date": flight["return"]} if "return" in flight else None
    return {"outward_flight": {"number": flight["outward-flight-number"], "date": flight["departure"]},
            "return_flight": back}


def _code(code: str) -> str:
    return normalize_kind("code", code)


def protect_card_data(gold: dict, protect: Protect) -> dict:
    """The gold call with its card number and security code in their stored form."""
    payment = gold["params"].get("payment")
    if not payment:
        return gold
    stored = {key: protect(CARD_TARGETS[key], value) if key in CARD_TARGETS else value for key, value in payment.items()}
    return {**gold, "params": {**gold["params"], "payment": stored}}
