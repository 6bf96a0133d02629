"""Whole numbers typed as text. Only ASCII digits count (str.isdigit() also accepts '²' and other
digits that int() refuses), and the length is bounded before int() is called (int() refuses
more than 4,300 digits)."""
from __future__ import annotations

import re

from .errors import InvalidInput

MAX_ID = 2**63 - 1  # the largest value of a database's 64-bit integer column
_DIGITS = re.compile(r"[0-9]{1,19}")  # 19 digits hold every number up to MAX_ID


def ascii_digits(text: str, lengths: range) -> bool:
    """True when `text` is only ASCII digits and its length is in `lengths`."""
    return text.isascii() and text.isdigit() and len(text) in lengths


def whole_number(text: str, label: str, maximum: int) -> int:
    """`text` as a number from 0 to `maximum`, or a 400 naming `label`."""
    if not _DIGITS.fullmatch(text) or int(text) > maximum:
        raise InvalidInput(f"{label} must be a whole number from 0 to {maximum}")
    return int(text)


def parse_id(text: str | None):
    """An id from a query parameter: a number when it is one that a row could have, None when
    empty, else the text itself for the caller to refuse by name."""
    if not text:
        return None
    return int(text) if _DIGITS.fullmatch(text) and 0 < int(text) <= MAX_ID else text


def is_row_id(value) -> bool:
    """A JSON value that can be looked up as a row id (bool is an int in Python, but not an id)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID
