"""Identifiers per variant: in a variant other than 0 every element id, data-testid, data-field and
radio group name the page carries is an opaque token drawn from (variant, semantic name), so that
nothing but the visible page tells an agent what a control is. The page's scripts get the table
back (renamed -> semantic name) in the page's JSON and report every event by its semantic name,
which is what gold steps and scoring use.

A derived id keeps its suffix on the renamed one ("<renamed>-error", "<renamed>-list"), as variant
0's do; the scripts build those the same way.
"""
from __future__ import annotations

import hashlib

# Names the page's scripts make elements with (flight rows, airport options, calendar days, booking
# matches): in the table whether or not the template used them.
SCRIPT_NAMES = ("outward-flight", "return-flight", "change-outward-flight", "change-return-flight",
                "booking-search-match", "airport-option", "datepicker-day")


def renamed(number: int, name: str) -> str:
    if not number:
        return name
    return "x" + hashlib.blake2b(f"{number}:{name}".encode(), digest_size=5).hexdigest()


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
