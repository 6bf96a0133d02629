"""The semantic targets of the UI (data-testid / data-field names) with their visible labels.

One table for everyone who names a control: gold steps, the evaluator's normalization, and agents
that find a control by its label. docs/ui-contract.md is the human-readable version.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from crm_app.airports import code_from_label
from crm_app.services.dates import read_date
from crm_app.services.validation import card_digits


@dataclass(frozen=True)
class Target:
    label: str  # the visible label or button text
    kind: str  # how values are normalized: text, airport, date, card, security-code, choice, flight, button, expiry
    form: str = ""  # the page's [data-form] container whose fields a click on this control snapshots


TARGETS: dict[str, Target] = {
    "nav-home": Target("Home", "button"),
    "nav-find-booking": Target("Find booking", "button"),
    "nav-help": Target("Help", "button"),
    "trip-type": Target("One way", "choice", "search"),  # values: return, oneway
    "search-from": Target("From", "airport", "search"),
    "search-to": Target("To", "airport", "search"),
    "search-depart": Target("Departure date", "date", "search"),
    "search-return": Target("Return date", "date", "search"),
    "search-submit": Target("Search flights", "button", "search"),
    "outward-flight": Target("Select your departing flight", "flight", "results"),
    "return-flight": Target("Select your return flight", "flight", "results"),
    "checkout": Target("Checkout", "button", "results"),
    "passenger-title": Target("Title", "choice", "passenger"),
    "passenger-firstname": Target("First name", "text", "passenger"),
    "passenger-lastname": Target("Last name", "text", "passenger"),
    "passenger-email": Target("Email address", "email", "passenger"),
    "passenger-gender": Target("Gender", "choice", "passenger"),
    "passenger-dob": Target("Date of birth", "date", "passenger"),
    "passenger-save": Target("Save", "button", "passenger"),
    "payment-card-number": Target("Card number", "card", "payment"),
    "payment-expiry": Target("Expiry", "expiry", "payment"),
    "payment-security-code": Target("Security code", "security-code", "payment"),
    "payment-name-on-card": Target("Name on card", "text", "payment"),
    "book-flight": Target("Book flight", "button", "payment"),
    "find-code": Target("Confirmation code", "code", "find"),
    "find-submit": Target("Search", "button", "find"),
    "modify-booking": Target("Modify booking", "button"),
    "cancel-booking": Target("Cancel booking", "button"),
    "cancel-code": Target("Confirmation code", "code", "cancel"),
    "cancel-close": Target("Close", "button", "cancel"),
    "cancel-confirm": Target("Confirm cancellation", "button", "cancel"),
    "modify-passenger-title": Target("Title", "choice", "modify-passenger"),
    "modify-passenger-firstname": Target("First name", "text", "modify-passenger"),
    "modify-passenger-lastname": Target("Last name", "text", "modify-passenger"),
    "modify-passenger-email": Target("Email address", "email", "modify-passenger"),
    "modify-passenger-gender": Target("Gender", "choice", "modify-passenger"),
    "modify-passenger-dob": Target("Date of birth", "date", "modify-passenger"),
    "modify-passenger-save": Target("Save", "button", "modify-passenger"),
    "change-flights": Target("Change flights", "button", "change-flights"),
    "change-from": Target("From", "airport", "change-flights"),
    "change-to": Target("To", "airport", "change-flights"),
    "change-depart": Target("Departure date", "date", "change-flights"),
    "change-return": Target("Return date", "date", "change-flights"),
    "change-search": Target("Search flights", "button", "change-flights"),
    "change-outward-flight": Target("Select your departing flight", "flight", "change-flights"),
    "change-return-flight": Target("Select your return flight", "flight", "change-flights"),
    "save-flights": Target("Save flights", "button", "change-flights"),
    # The hard suite's CRM only (SuiteLook.airline_policy)
    "nav-booking-search": Target("Search bookings", "button"),
    "nav-policy": Target("Policy", "button"),
    "booking-search-lastname": Target("Last name", "text", "booking-search"),
    "booking-search-date": Target("Travel date", "date", "booking-search"),
    "booking-search-submit": Target("Search", "button", "booking-search"),
    "booking-search-match": Target("Choose a booking", "code", "booking-search"),  # value: a confirmation code
    "booking-search-open": Target("Open booking", "button", "booking-search"),
    "fare": Target("Fare", "choice", "results"),  # values: basic, standard, flex
}


def kind_of(target: str) -> str:
    return TARGETS[target].kind if target in TARGETS else "text"


def normalize(target: str, value) -> str:
    """A value as events and gold steps compare it: trimmed, codes upper-case, dates ISO."""
    if isinstance(value, str):
        return _normalized_text(target, value)
    return normalize_kind(kind_of(target), value)


@lru_cache(maxsize=8192)
def _normalized_text(target: str, value: str) -> str:
    # Scoring normalizes the same few values again and again (a date at every click): remembered.
    return normalize_kind(kind_of(target), value)


def normalize_kind(kind: str, value) -> str:
    """A value of a field of this kind, normalized (see `normalize`)."""
    text = "" if value is None else str(value).strip()
    if kind == "airport":
        return code_from_label(text)
    if kind in ("code", "flight"):
        return text.upper()
    if kind == "date":
        day = read_date(text)
        return day.isoformat() if day else text
    if kind == "card":
        return card_digits(text)
    if kind in ("email", "choice"):
        return text.lower()
    return text

