"""Checks on what a caller types: passenger details and payment cards."""
from __future__ import annotations

import datetime as dt
import re

from .dates import parse_date
from .errors import InvalidInput

TITLES = ("Mr", "Mrs", "Ms", "Miss", "Dr")
GENDERS = ("Male", "Female", "Other")
PASSENGER_FIELDS = ("title", "first_name", "last_name", "email", "gender", "date_of_birth")
PASSENGER_LABELS = {
    "title": "Title", "first_name": "First name", "last_name": "Last name",
    "email": "Email address", "gender": "Gender", "date_of_birth": "Date of birth",
}
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
MAX_NAME = 60


def _text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


def _one_of(value, choices, label):
    text = _text(value)
    for choice in choices:
        if text.lower() == choice.lower():
            return choice
    return InvalidInput(f"{label} must be one of {', '.join(choices)}")


def _name(value, label):
    text = _text(value)
    if not text:
        return InvalidInput(f"{label} is required")
    if len(text) > MAX_NAME:
        return InvalidInput(f"{label} must be at most {MAX_NAME} characters")
    return text


def _email(value, label):
    text = _text(value)
    if not text:
        return InvalidInput(f"{label} is required")
    return text if EMAIL.match(text) else InvalidInput(f"{label} must look like name@example.com")


def _birth_date(value, label, today: dt.date):
    if not _text(value):
        return InvalidInput(f"{label} is required")
    try:
        born = parse_date(value, label)
    except InvalidInput as error:
        return error
    if not today.replace(year=today.year - 120) <= born < today:
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
    return _name(value, label)


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
        raise InvalidInput(_summary(errors), errors)
    return cleaned


def _summary(errors: dict[str, str]) -> str:
    if len(errors) == 1:
        return next(iter(errors.values()))
    return "Please correct: " + ", ".join(PASSENGER_LABELS.get(f, f) for f in errors)


def luhn_valid(number: str) -> bool:
    total = 0
    for position, digit in enumerate(int(d) for d in reversed(number)):
        if position % 2:
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return total % 10 == 0


def card_digits(value) -> str:
    return re.sub(r"[\s-]", "", _text(value))


def check_payment(data, today: dt.date) -> dict:
    """Card details, cleaned: a Luhn-valid number, an expiry not in the past, a 3-4 digit code."""
    if not isinstance(data, dict):
        raise InvalidInput("Payment details must be an object")
    errors = {}
    number = card_digits(data.get("card_number"))
    if not (number.isdigit() and 12 <= len(number) <= 19 and luhn_valid(number)):
        errors["card_number"] = "Card number is not valid"
    expiry = _text(data.get("expiry"))
    expiry_error = _expiry_error(expiry, today)
    if expiry_error:
        errors["expiry"] = expiry_error
    code = _text(data.get("security_code"))
    if not (code.isdigit() and len(code) in (3, 4)):
        errors["security_code"] = "Security code must be 3 or 4 digits"
    name = _text(data.get("name_on_card"))
    if not name:
        errors["name_on_card"] = "Name on card is required"
    if errors:
        raise InvalidInput(_payment_summary(errors), errors)
    return {"card_number": number, "expiry": expiry, "name_on_card": name[:120]}


def _payment_summary(errors: dict[str, str]) -> str:
    return next(iter(errors.values())) if len(errors) == 1 else "Please check the payment details"


def _expiry_error(expiry: str, today: dt.date) -> str | None:
    match = re.fullmatch(r"(\d{2})/(\d{2})", expiry)
    if not match or not 1 <= int(match.group(1)) <= 12:
        return "Expiry must be MM/YY"
    month, year = int(match.group(1)), 2000 + int(match.group(2))
    if (year, month) < (today.year, today.month):
        return "Card has expired"
    return None
