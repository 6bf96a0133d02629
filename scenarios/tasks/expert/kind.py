"""What a request kind is (issue 49): one thing a caller may ask for in a call, as composable data.

A kind draws its request on a booking of its own, as a hard-suite task draws its scenario (the same
samples, the same policy terms: scenarios/tasks/hard/), and says what the caller knows of it, how
the caller asks, the gold lines and steps that handle it once its booking is open, the gold API
calls after the booking's lookup, and the change it leaves on the booking. A drawn request is a
dict shaped like a hard task's details (`confirmation-code`, `customer`, `expected`, `forbidden`,
...), so that the hard tasks' own gold pieces take it as they are.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...sampling import Draw
from ..base import Sample

IDENTITY = ("confirmation_code", "date_of_birth", "email", "first_name", "last_name")  # the caller's own


def nothing(request: dict) -> list[dict]:
    return []


@dataclass(frozen=True)
class RequestKind:
    name: str
    description: str
    draw: Callable[[Draw], Sample]  # the request on a booking of its own (details as a hard task's)
    says: Callable[[dict, str], str]  # (request, how the caller names its booking) -> the caller's words
    handle: Callable[[dict], list[dict]]  # gold steps and lines once its booking is open on the screen
    calls: Callable[[dict], list[dict]]  # gold API calls after the booking's lookup
    change: Callable[[dict, dict], None] | None = None  # (booking state, request): the change expected
    asks: Callable[[dict], list[dict]] = nothing  # lines asking for its facts, said before finding the booking
    on_booking: bool = True  # False: it makes a new booking, and has none of its own to find
    ends_call: bool = False  # handling it ends the call (a transfer): it can only come last
    keeps: tuple[str, ...] = ()  # facts of IDENTITY that are the request's own (a name to correct)
    looked_up: bool = True  # False: the rep has no business with its booking, and the gold never finds it

    def own_facts(self, request: dict) -> dict:
        """What the caller knows of this request beyond who it is."""
        return {name: value for name, value in request["customer"].items() if name not in IDENTITY or name in self.keeps}
