"""Whole numbers typed as text, read by one parser (`ascii_number`) wherever a query string, a
path or a body carries one. Only ASCII digits count (str.isdigit() also accepts '²' and other
digits that int() refuses, and int() accepts '٣' and '１'), and the length is bounded before int()
is called (int() refuses more than 4,300 digits)."""
from __future__ import annotations

import re

from .errors import InvalidInput, excerpt

MAX_ID = 2**63 - 1  # the largest value of a database's 64-bit integer column
_DIGITS = re.compile(r"[0-9]{1,19}")  # 19 digits hold every number up to MAX_ID


def ascii_digits(text: str, lengths: range) -> bool:
    """True when `text` is only ASCII digits and its length is in `lengths`."""
    return text.isascii() and text.isdigit() and len(text) in lengths


def ascii_number(text, maximum: int = MAX_ID) -> int | None:
    """`text` as a number from 0 to `maximum` when it is ASCII digits alone; else None."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return None
    number = int(text)
    return number if number <= maximum else None


def whole_number(text: str, name: str, maximum: int, expected: str = "") -> int:
    """`text` as a number from 0 to `maximum`, or a 400 naming the parameter `name` (in the
    message and in `fields`); `expected` words what it takes when that is more than a number."""
    number = ascii_number(text, maximum)
    if number is None:
        raise wrong_number(name, expected or f"a whole number from 0 to {maximum}", text)
    return number


def wrong_number(name: str, expected: str, text: str) -> InvalidInput:
    """The 400 for the parameter `name`: what it takes, and what it was given."""
    return InvalidInput(f"{name} must be {expected}, not {excerpt(text, 20)!r}", {name: f"Must be {expected}"})


def parse_id(text: str | None):
    """An id from a query parameter: a number when it is one that a row could have, None when
    empty, else the text itself for the caller to refuse by name."""
    if not text:
        return None
    number = ascii_number(text)
    return number if number else text  # 0 is no row's id


def is_row_id(value) -> bool:
    """A JSON value that can be looked up as a row id (bool is an int in Python, but not an id)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID
