"""Checks on what a caller types: passenger details and payment cards.

Messages follow one style: an empty text field "<Label> is required", an empty choice "Choose a
<label>", a wrong value says what is expected; no message ends with a full stop (see
errors.form_error for a form's summary). Text fields are limited to the length of the column
that stores them.
"""
from __future__ import annotations

import datetime as dt
import re

from ..models import Passenger, Payment
from .dates import parse_date, us_date
from .errors import InvalidInput, form_error
from .numbers import ascii_digits

TITLES = ("Mr", "Mrs", "Ms", "Miss", "Dr")
GENDERS = ("Male", "Female", "Other")
PASSENGER_FIELDS = ("title", "first_name", "last_name", "email", "gender", "date_of_birth")
PASSENGER_LABELS = {
    "title": "Title", "first_name": "First name", "last_name": "Last name",
    "email": "Email address", "gender": "Gender", "date_of_birth": "Date of birth",
}
PAYMENT_LABELS = {"card_number": "Card number", "expiry": "Expiry", "security_code": "Security code",
                  "name_on_card": "Name on card"}
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
EARLIEST_BIRTH = dt.date(1900, 1, 1)


def column_length(column) -> int:
    """The length of a String column, which a text field must not exceed."""
    return column.property.columns[0].type.length


TEXT_LIMITS = {field: column_length(getattr(Passenger, field)) for field in ("first_name", "last_name", "email")}
MAX_NAME_ON_CARD = column_length(Payment.name_on_card)


def _text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


def _one_of(value, choices, label):
    text = _text(value)
    if not text:
        return InvalidInput(f"Choose a {label.lower()}")
    for choice in choices:
        if text.lower() == choice.lower():
            return choice
    return InvalidInput(f"{label} must be one of {', '.join(choices)}")


def _bounded(value, label, limit):
    """Required text of at most `limit` characters."""
    text = _text(value)
    if not text:
        return InvalidInput(f"{label} is required")
    if len(text) > limit:
        return InvalidInput(f"{label} must be at most {limit} characters")
    return text


def _email(value, label):
    text = _bounded(value, label, TEXT_LIMITS["email"])
    if isinstance(text, InvalidInput) or EMAIL.match(text):
        return text
    return InvalidInput(f"{label} must look like name@example.com")


def _birth_date(value, label, today: dt.date):
    if not _text(value):
        return InvalidInput(f"{label} is required")
    try:
        born = parse_date(value, label)
    except InvalidInput as error:
        return error
    if born < EARLIEST_BIRTH:
        return InvalidInput(f"{label} must be on or after {us_date(EARLIEST_BIRTH)}")
    if born >= today:
        return InvalidInput(f"{label} must be a past date")
    return born


def _check_field(field: str, value, today: dt.date):
    label = PASSENGER_LABELS[field]
    if field == "title":
        return _one_of(value, TITLES, label)
    if field == "gender":
        return _one_of(value, GENDERS, label)
    if field == "email":
        return _email(value, label)
    if field == "date_of_birth":
        return _birth_date(value, label, today)
    return _bounded(value, label, TEXT_LIMITS[field])


def check_passenger(data, today: dt.date, partial: bool = False) -> dict:
    """Passenger fields, cleaned. With `partial`, only the fields given are checked."""
    if not isinstance(data, dict):
        raise InvalidInput("Passenger details must be an object")
    names = [f for f in PASSENGER_FIELDS if f in data] if partial else PASSENGER_FIELDS
    if partial and not names:
        raise InvalidInput(f"Give at least one of: {', '.join(PASSENGER_FIELDS)}")
    cleaned, errors = {}, {}
    for field in names:
        result = _check_field(field, data.get(field), today)
        if isinstance(result, InvalidInput):
            errors[field] = result.message
        else:
            cleaned[field] = result
    if errors:
        raise form_error(errors, PASSENGER_LABELS)
    return cleaned


def luhn_valid(number: str) -> bool:
    total = 0
    for position, digit in enumerate(int(d) for d in reversed(number)):
        if position % 2:
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return total % 10 == 0


def card_digits(value) -> str:
    return re.sub(r"[\s-]", "", _text(value))


def _card_number_error(number: str) -> str | None:
    if not number:
        return "Card number is required"
    if not (ascii_digits(number, range(12, 20)) and luhn_valid(number)):
        return "Card number is not valid"
    return None


def _security_code_error(code: str) -> str | None:
    if not code:
        return "Security code is required"
    return None if ascii_digits(code, range(3, 5)) else "Security code must be 3 or 4 digits"


def check_payment(data, today: dt.date) -> dict:
    """Card details, cleaned: a Luhn-valid number, an expiry not in the past, a 3-4 digit code."""
    if not isinstance(data, dict):
        raise InvalidInput("Payment details must be an object")
    number = card_digits(data.get("card_number"))
    expiry = _text(data.get("expiry"))
    name = _bounded(data.get("name_on_card"), PAYMENT_LABELS["name_on_card"], MAX_NAME_ON_CARD)
    found = {
        "card_number": _card_number_error(number),
        "expiry": _expiry_error(expiry, today),
        "security_code": _security_code_error(_text(data.get("security_code"))),
        "name_on_card": name.message if isinstance(name, InvalidInput) else None,
    }
    errors = {field: message for field, message in found.items() if message}
    if errors:
        raise form_error(errors, PAYMENT_LABELS)
    return {"card_number": number, "expiry": expiry, "name_on_card": name}


def _expiry_error(expiry: str, today: dt.date) -> str | None:
    if not expiry:
        return "Expiry is required"
    match = re.fullmatch(r"([0-9]{2})/([0-9]{2})", expiry)
    if not match or not 1 <= int(match.group(1)) <= 12:
        return "Expiry must be MM/YY"
    month, year = int(match.group(1)), 2000 + int(match.group(2))
    if (year, month) < (today.year, today.month):
        return "Card has expired"
    return None
