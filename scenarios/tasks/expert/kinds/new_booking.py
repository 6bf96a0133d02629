"""new_booking: book a one-way flight for a companion of the caller's, the cheapest meeting its
wish in the fare it names (as TASK_BOOK_CONSTRAINED); it has no booking to find, and leaves a new one."""
from __future__ import annotations

from ....phrasing import airport, spoken_date
from ...hard import book_constrained
from ..kind import RequestKind


def says(request: dict, booking: str) -> str:
    flight, person = request["flight"], request["passenger"]
    return (f"I'd also like to book a one-way flight for my friend {person['firstname']} {person['lastname']}, "
            f"from {airport(flight['from'])} to {airport(flight['to'])} on {spoken_date(flight['departure'], 'long')}: "
            f"{request['wish']}.")


KIND = RequestKind(
    "new_booking", "a new one-way booking for a companion: the cheapest flight meeting its wish, in its fare",
    draw=book_constrained.sample, says=says, handle=lambda request: book_constrained.gold(request)[1:],
    calls=book_constrained.gold_calls, asks=lambda request: book_constrained.gold(request)[:1], on_booking=False,
    keeps=("first_name", "last_name", "date_of_birth", "email"))
