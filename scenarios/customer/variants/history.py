"""What a variant reads of the call so far: which facts each of the rep's lines asked, which the
customer has given, and a random draw fixed by the caller's facts (so a reply stays a pure function
of the task, the seed, the variant and the transcript)."""
from __future__ import annotations

import hashlib
import random
import re

from ..reading import read
from ..simulator import AGENT, CUSTOMER, Turn

NOT_COUNTED = ("request", "trip", "consent")  # what a rep may ask again without asking for a fact again
MAX_READ = 4096  # rep lines whose reading is kept (for the next replies of their calls)
_READ: dict[tuple[str, tuple], tuple[str, ...]] = {}  # (line, the facts read with) -> the facts it asks
EXACTLY = re.compile(r"\b(exact|exactly|precise|precisely|specific|full date|which month|what month|month and year|"
                     r"the year|in full)\b", re.I)


def asked_lines(turn: Turn) -> list[list[str]]:
    """The facts each of the rep's lines asked for, in order, the last line's included: read once
    per turn (kept on it), each line read once per call (kept by its text and the facts it was read with)."""
    if turn.asked_lines is None:
        key = tuple(sorted((name, repr(value)) for name, value in turn.known.items()))
        turn.asked_lines = [list(_asked(line["text"], turn.known, key))
                            for line in turn.transcript if line["role"] == AGENT]
    return turn.asked_lines


def _asked(text: str, known: dict, key: tuple) -> tuple[str, ...]:
    """What a rep's line asks for (the facts counted), read with the facts `known` (`key` names them)."""
    found = _READ.get((text, key))
    if found is None:
        found = tuple(name for name in read(text, known).asked if name not in NOT_COUNTED)
        if len(_READ) >= MAX_READ:
            _READ.clear()
        _READ[text, key] = found
    return found


def times_asked(turn: Turn, name: str) -> int:
    return sum(name in asked for asked in asked_lines(turn))


def given_before(turn: Turn, name: str, forms) -> bool:
    """Whether a line the customer said before gives the fact in one of its `forms`."""
    said = [line["text"] for line in turn.transcript if line["role"] == CUSTOMER]
    return any(form in text for text in said for form in forms)


def asked_exactly(turn: Turn) -> bool:
    """Whether the rep's last line asks for a value exactly ("the exact date, with the month and year")."""
    return bool(turn.transcript) and bool(EXACTLY.search(turn.transcript[-1]["text"]))


def replies_so_far(turn: Turn) -> int:
    """How many of the rep's lines the customer has answered before this one."""
    return sum(line["role"] == AGENT for line in turn.transcript) - 1


def draw(turn: Turn, salt: str) -> random.Random:
    """A random draw fixed by the caller's facts and `salt`."""
    key = repr(sorted((name, str(value)) for name, value in turn.facts.items()))
    return random.Random(hashlib.sha256(f"{salt}:{key}".encode()).hexdigest())
