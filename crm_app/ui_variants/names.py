"""Identifiers per variant: in a variant other than 0 every element id, data-testid, data-field, radio
group name and class the page carries is an opaque token drawn from (variant, name), so that
nothing but the visible page tells an agent what a control is. The page's scripts get the table
back (renamed -> semantic name) in the page's JSON and report every event by its semantic name,
which is what gold steps and scoring use; the style sheet is served with its class selectors
renamed the same way (`renamed_stylesheet`).

A derived id keeps its suffix on the renamed one ("<renamed>-error", "<renamed>-list"), as variant
0's do; the scripts build those the same way.
"""
from __future__ import annotations

import hashlib
import re

# Names the page's scripts make elements with (flight rows, airport options, calendar days, booking
# matches): in the table whether or not the template used them.
SCRIPT_NAMES = ("outward-flight", "return-flight", "change-outward-flight", "change-return-flight",
                "booking-search-match", "airport-option", "datepicker-day")
# Classes the page's scripts set or look for (static/*.js: className, classList, selectors)
SCRIPT_CLASSES = ("muted", "flights", "flight-cards", "flight-list", "fare", "current-flight", "flight-status", "itinerary",
                  "cancelled", "matches", "dp-grid", "dp-jump", "dp-title", "date-row", "field-error", "form-error")
CLASS_SELECTOR = re.compile(r"\.([A-Za-z][\w-]*)")  # in selectors only: no decimal numbers there
COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)


def renamed(number: int, name: str) -> str:
    if not number:
        return name
    return "x" + hashlib.blake2b(f"{number}:{name}".encode(), digest_size=5).hexdigest()


def renamed_class(number: int, name: str) -> str:
    if not number:
        return name
    return "k" + hashlib.blake2b(f"{number}:class:{name}".encode(), digest_size=4).hexdigest()


def renamed_classes(number: int, names: str) -> str:
    """A class attribute's value, each of its classes renamed."""
    return " ".join(renamed_class(number, name) for name in names.split())


def renamed_stylesheet(css: str, number: int) -> str:
    """The style sheet with every class selector renamed for variant `number` (comments left out)."""
    blocks = COMMENT.sub("", css).split("}")
    return "}".join(_renamed_selectors(block, number) for block in blocks)


def _renamed_selectors(block: str, number: int) -> str:
    selectors, brace, body = block.rpartition("{")  # the last: a rule inside @media follows the media query
    return CLASS_SELECTOR.sub(lambda match: "." + renamed_class(number, match.group(1)), selectors) + brace + body


def script_classes(number: int) -> dict[str, str]:
    return {name: renamed_class(number, name) for name in SCRIPT_CLASSES}


class Namer:
    """Renames a page's names for variant `number` and remembers them for the page's table."""

    def __init__(self, number: int):
        self.number = number
        self.used: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        token = renamed(self.number, name)
        self.used[token] = name
        return token

    def table(self) -> dict[str, str]:
        """renamed -> semantic, for every name used so far and every name the scripts make."""
        for name in SCRIPT_NAMES:
            self(name)
        return dict(self.used)
