"""The JSON API requests recorded inside a scenario, and their parameters in normalized form.

Every request the server answers inside a scenario to one of the routes below is kept, in arrival
order, as `{"operation", "params", "status"}`: the read-only tasks are judged on the last flight
search or booking lookup, and a tool-calling episode can be scored on the operations it made. The
parameters are normalized the way gold steps are (airport codes, ISO dates, upper-case codes, a
stripped text) and card data is protected as in page events (`card_data.py`): nothing recorded
holds a full card number or security code. A call that names flights by id also records which
flights those are (`outward_flight` / `return_flight`: number and date, None when no such flight),
because ids differ between databases while a flight number and date name the same flight anywhere.
"""
from __future__ import annotations

from collections.abc import Callable

from crm_app.services.numbers import parse_id

from .card_data import protect_kind
from .targets import normalize_kind

MAX_TEXT = 200

# (method, URL rule) -> operation name. The rule is the route as the API declares it.
OPERATIONS = {
    ("GET", "/api/flights/search"): "search_flights",
    ("GET", "/api/quote"): "quote",
    ("POST", "/api/passenger/validate"): "validate_passenger",
    ("POST", "/api/bookings"): "create_booking",
    ("GET", "/api/bookings"): "search_bookings",
    ("GET", "/api/bookings/<code>"): "get_booking",
    ("POST", "/api/bookings/<code>/cancel"): "cancel_booking",
    ("PATCH", "/api/bookings/<code>/passenger"): "update_passenger",
    ("PUT", "/api/bookings/<code>/flights"): "change_flights",
    ("GET", "/api/bookings/<code>/fare/quote"): "quote_fare_upgrade",
    ("POST", "/api/bookings/<code>/fare"): "upgrade_fare",
    ("GET", "/api/kb/search"): "search_knowledge_base",  # the expert suite's knowledge base (issue 50)
    ("GET", "/api/kb/articles/<id>"): "read_article",
}

PASSENGER_KINDS = {"title": "choice", "first_name": "text", "last_name": "text", "email": "email",
                   "gender": "choice", "date_of_birth": "date"}
PAYMENT_KINDS = {"card_number": "card", "expiry": "expiry", "security_code": "security-code", "name_on_card": "text"}


# The operations that change bookings (a timeline keeps the state each left: timeline.py)
WRITES = frozenset({"create_booking", "cancel_booking", "update_passenger", "change_flights", "upgrade_fare"})


def operation_of(method: str, rule: str | None) -> str | None:
    """The recorded operation a request to `rule` is, or None for requests that are not recorded."""
    return OPERATIONS.get((method, rule)) if rule else None


# operation -> the parameters holding its (outward, return) flight ids
FLIGHT_IDS = {"quote": ("outward", "return"), "create_booking": ("outward_flight_id", "return_flight_id"),
              "change_flights": ("outward_flight_id", "return_flight_id")}

PATH_KINDS = {"code": "code", "id": "text"}  # a route's path parameters: a booking's code, an article's id
FlightNamer = Callable[[object], "dict | None"]  # a flight id -> {"number", "date"}, or None


def call_params(operation: str, args: dict, body, path: dict, hasher, flight_named: FlightNamer | None = None) -> dict:
    """The request's parameters as recorded: only the ones the operation takes, normalized; with
    `flight_named`, the flights its ids name."""
    body = body if isinstance(body, dict) else {}
    named = {name: _text(kind, path[name]) for name, kind in PATH_KINDS.items() if name in path}
    params = {**named, **PARAMS[operation](args, body, hasher)}
    if flight_named and operation in FLIGHT_IDS:
        outward, back = FLIGHT_IDS[operation]
        params.update(outward_flight=flight_named(params[outward]), return_flight=flight_named(params[back]))
    return params


def passenger_params(person: dict, hasher=None) -> dict:
    """Passenger fields by their API names, normalized as a recorded call holds them."""
    return _fields(person, PASSENGER_KINDS, hasher)


def payment_params(card: dict, hasher=None) -> dict:
    """Card fields by their API names, normalized (and with a `hasher`, protected) as recorded."""
    return _fields(card, PAYMENT_KINDS, hasher)


def _search(args, body, hasher) -> dict:
    found = {"from": _text("airport", args.get("from")), "to": _text("airport", args.get("to")),
             "date": _text("date", args.get("date"))}
    if args.get("return"):  # the API searches one way when `return` is empty
        found["return"] = _text("date", args.get("return"))
    return found


def _booking_search(args, body, hasher) -> dict:
    name = _text("text", args.get("last_name"))  # the search ignores case, and so does its gold call
    return {"last_name": name.lower() if name else name, "date": _text("date", args.get("date"))}


def _quote(args, body, hasher) -> dict:
    return {"outward": _query_flight_id(args.get("outward")), "return": _query_flight_id(args.get("return"))}


def _passenger(args, body, hasher) -> dict:
    return {"passenger": _fields(body.get("passenger"), PASSENGER_KINDS, hasher)}


def _booking(args, body, hasher) -> dict:
    return {"outward_flight_id": _flight_id(body.get("outward_flight_id")),
            "return_flight_id": _flight_id(body.get("return_flight_id")),
            "passenger": _fields(body.get("passenger"), PASSENGER_KINDS, hasher),
            "payment": _fields(body.get("payment"), PAYMENT_KINDS, hasher),
            **({"fare": _text("text", body["fare"])} if "fare" in body else {})}  # the hard suite's fare family


def _nothing(args, body, hasher) -> dict:
    return {}


def _cancel(args, body, hasher) -> dict:
    return {"confirmation_code": _text("code", body.get("confirmation_code"))}


def _update(args, body, hasher) -> dict:
    return {"passenger": _fields(body.get("passenger", body), PASSENGER_KINDS, hasher)}  # as the API reads it


def _fare_quote(args, body, hasher) -> dict:
    return {"fare": _text("text", args.get("fare"))}


def _fare(args, body, hasher) -> dict:
    return {"fare": _text("text", body.get("fare"))}


def _change(args, body, hasher) -> dict:
    return {"outward_flight_id": _flight_id(body.get("outward_flight_id")),
            "return_flight_id": _flight_id(body.get("return_flight_id"))}


PARAMS: dict[str, Callable[..., dict]] = {
    "search_flights": _search, "quote": _quote, "validate_passenger": _passenger, "create_booking": _booking,
    "get_booking": _nothing, "search_bookings": _booking_search, "cancel_booking": _cancel, "update_passenger": _update,
    "change_flights": _change, "quote_fare_upgrade": _fare_quote, "upgrade_fare": _fare,
    "search_knowledge_base": lambda args, body, hasher: {"q": _text("text", args.get("q"))},
    "read_article": lambda args, body, hasher: {},
}


def _fields(values, kinds: dict[str, str], hasher) -> dict:
    """The known fields given in `values`, each normalized by its kind, card data protected (when
    there is a `hasher`)."""
    if not isinstance(values, dict):
        return {}
    found = {name: _text(kind, values[name]) for name, kind in kinds.items() if name in values}
    return {name: protect_kind(kinds[name], value, hasher) for name, value in found.items()} if hasher else found


def _text(kind: str, value) -> str | None:
    if value is None:
        return None
    shown = value if isinstance(value, (str, int, float)) and not isinstance(value, bool) else repr(value)
    return normalize_kind(kind, str(shown)[:MAX_TEXT])


def _flight_id(value):
    """A flight id from a JSON body: a number as the API takes it, anything else as (short) text."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return _text("text", value)


def _query_flight_id(value):
    """A flight id from the query string, read as the route reads it (`parse_id`: ASCII digits
    that a row id can be are a number; anything else stays text)."""
    found = parse_id(value) if isinstance(value, str) else None
    return found if isinstance(found, int) else _text("text", value)


def describe_call(call: dict) -> str:
    """A recorded call as one line: 'cancel_booking WQCWGR -> 200'."""
    code = (call.get("params") or {}).get("code")
    return f"{call.get('operation')}{f' {code}' if code else ''} -> {call.get('status')}"
