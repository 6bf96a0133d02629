"""Recorded page events: checking what the page posts, counting the actions they are, and reading
the field values at each click."""
from __future__ import annotations

import re

from crm_app.services.errors import InvalidInput

from .card_data import Protect, keep
from .targets import normalize

ACTIONS = ("fill", "click")
NAME = re.compile(r"^[A-Za-z0-9_-]{1,80}$")
PAGE = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
MAX_VALUE = 200
MAX_FIELDS = 60


def clean_event(body: dict, protect: Protect = keep) -> dict:
    """The event as stored: checked, values normalized the way gold steps are, card data passed
    through `protect`. Raises InvalidInput."""
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
        event["value"] = _clean_value(target, body.get("value"), protect)
    fields = body.get("fields")
    if fields is not None:
        event["fields"] = _clean_fields(fields, protect)
    return event


def _clean_value(target: str, value, protect: Protect) -> str:
    if isinstance(value, bool) or not (value is None or isinstance(value, (str, int, float))):
        raise InvalidInput("value must be a string")
    return protect(target, normalize(target, value)[:MAX_VALUE])


def _clean_fields(fields, protect: Protect) -> dict:
    if not isinstance(fields, dict) or len(fields) > MAX_FIELDS:
        raise InvalidInput(f"fields must be an object of at most {MAX_FIELDS} field values")
    cleaned = {}
    for name, value in fields.items():
        if not NAME.match(name):
            raise InvalidInput(f"fields has a malformed field name: {name[:80]}")
        cleaned[name] = _clean_value(name, value, protect)
    return cleaned


def committed_values(events: list[dict], fields_of: dict[str, set[str]]) -> dict[int, dict[str, str | None]]:
    """The committed value of each field in `fields_of[target]` at every click on `target`, by
    event index, in one pass over the events.

    A click that carries a snapshot of its form is judged on that snapshot alone: a field missing
    from it was not submitted (disabled, like the Return date of a one-way search, or not on the
    form). Only a click without a snapshot falls back to the last fill of each field before it.
    """
    last_fill: dict[str, str | None] = {}
    found = {}
    for index, event in enumerate(events):
        target = event.get("target")
        if event.get("action") == "fill":
            last_fill[target] = event.get("value")
        elif event.get("action") == "click" and target in fields_of:
            snapshot = event.get("fields")
            source = last_fill if snapshot is None else snapshot
            found[index] = {name: normalize(name, source[name]) if name in source else None
                            for name in fields_of[target]}
    return found


def action_ends(events: list[dict]) -> list[int]:
    """The indices of the events that end an action. Consecutive fills of the same field with no
    other event between them are one action (a select's keyboard type-ahead commits a value per
    keystroke: "m", "mr", "mrs" is one choice), counted at its last fill; every other event is one."""
    ends = []
    for index, event in enumerate(events):
        following = events[index + 1] if index + 1 < len(events) else None
        if following is not None and event.get("action") == "fill" == following.get("action") \
                and event.get("target") == following.get("target"):
            continue
        ends.append(index)
    return ends
