"""Recorded page events: checking what the page posts, and reading a field's value at a click."""
from __future__ import annotations

import re

from crm_app.services.errors import InvalidInput

from .targets import normalize

ACTIONS = ("fill", "click")
NAME = re.compile(r"^[A-Za-z0-9_-]{1,80}$")
PAGE = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
MAX_VALUE = 200
MAX_FIELDS = 60


def clean_event(body: dict) -> dict:
    """The event as stored: checked, values normalized the way gold steps are. Raises InvalidInput."""
    page, seq, action, target = body.get("page"), body.get("seq"), body.get("action"), body.get("target")
    if not isinstance(page, str) or not PAGE.match(page):
        raise InvalidInput("page must be 1-40 letters, digits, '-' or '_'")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq < 2**31:
        raise InvalidInput("seq must be a positive integer")
    if action not in ACTIONS:
        raise InvalidInput("action must be 'fill' or 'click'")
    if not isinstance(target, str) or not NAME.match(target):
        raise InvalidInput("target must be a semantic name like 'search-from'")
    event = {"page": page, "seq": seq, "action": action, "target": target, "value": None, "fields": None}
    if action == "fill":
        event["value"] = _clean_value(target, body.get("value"))
    fields = body.get("fields")
    if fields is not None:
        event["fields"] = _clean_fields(fields)
    return event


def _clean_value(target: str, value) -> str:
    if isinstance(value, bool) or not (value is None or isinstance(value, (str, int, float))):
        raise InvalidInput("value must be a string")
    return normalize(target, value)[:MAX_VALUE]


def _clean_fields(fields) -> dict:
    if not isinstance(fields, dict) or len(fields) > MAX_FIELDS:
        raise InvalidInput(f"fields must be an object of at most {MAX_FIELDS} field values")
    cleaned = {}
    for name, value in fields.items():
        if not NAME.match(name):
            raise InvalidInput(f"fields has a malformed field name: {name[:80]}")
        cleaned[name] = _clean_value(name, value)
    return cleaned


def value_at(events: list[dict], index: int, target: str) -> str | None:
    """The committed value of `target` when events[index] (a click) happened.

    The click's own snapshot of its form wins, so prefilled and corrected values count; without
    one, the last fill of that field before the click.
    """
    fields = events[index].get("fields") or {}
    if target in fields:
        return normalize(target, fields[target])
    for event in reversed(events[:index]):
        if event.get("action") == "fill" and event.get("target") == target:
            return normalize(target, event.get("value"))
    return None
