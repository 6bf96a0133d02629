"""What one line of the rep asks the customer for, and what it reads back to them."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .facts import BY_NAME, DATE_KINDS, DISTINCT, KINDS, FactKind, dates_in

REQUEST_CUES = re.compile(r"\?|\b(please|can you|could you|would you|will you|may i|can i|could i|tell me|give me|"
                          r"provide|need|i'll need|spell|let me have|go ahead with)\b")
READ_BACK_CUES = re.compile(r"\b(correct|right|is that|confirm|so your|just to (confirm|check|make sure)|let me read|"
                            r"double.check|did i get|have i got|i have (your|the)|that's)\b")
CLOSING = re.compile(r"\banything else\b|\bsomething else\b|\bhelp you with anything\b")


@dataclass
class Reading:
    asked: list[str] = field(default_factory=list)  # the kinds of fact asked for, in the line's order
    read_back: dict[str, list] = field(default_factory=dict)  # kind -> the values the line says it has
    question: bool = False  # the line asks something (of whatever kind)
    closing: bool = False  # "anything else?"


def read(line: str, known: dict) -> Reading:
    """What `line` asks and reads back; `known` holds the customer's facts by kind (to tell which of
    two date facts a bare date is read back as)."""
    lower = line.lower()
    reading = Reading(question=bool(REQUEST_CUES.search(lower)), closing=bool(CLOSING.search(lower)))
    if READ_BACK_CUES.search(lower):
        reading.read_back = _read_back(line, lower, known)
    if reading.question:
        spans = {kind.name: _mentions(kind, lower) for kind in KINDS}
        asked = [name for name, found in spans.items() if found and not _inside_another(name, spans)]
        reading.asked = [name for name in sorted(asked, key=lambda name: spans[name][0])
                         if name not in reading.read_back]
    return reading


def _read_back(line: str, lower: str, known: dict) -> dict[str, list]:
    """Values the line states for a kind: a kind named in the line, or one whose values name their
    kind (a code, an email, a card, a time). A date goes to the date fact it is nearest to, among
    those the line names (else among those the customer has)."""
    found: dict[str, list] = {}
    for kind in KINDS:
        if kind.spot is None or kind.name in DATE_KINDS:
            continue
        values = kind.spot(line)
        if values and (kind.name in DISTINCT or kind.is_asked(lower)):
            found[kind.name] = values
    named = [name for name in DATE_KINDS if BY_NAME[name].is_asked(lower) and name in known]
    candidates = named or [name for name in DATE_KINDS if name in known]
    for day in dates_in(line) if candidates else []:
        nearest = min(candidates, key=lambda name: abs((known[name] - day).days))
        found.setdefault(nearest, []).append(day)
    return found


def _mentions(kind: FactKind, lower: str) -> list[tuple[int, int]]:
    """Where the line asks for this kind, in order."""
    return sorted(match.span() for pattern in kind.asked for match in re.finditer(pattern, lower))


def _inside_another(name: str, spans: dict[str, list[tuple[int, int]]]) -> bool:
    """Every mention of the kind lies within a longer mention of another ("last name" in "first and
    last name")."""
    others = [span for other, found in spans.items() if other != name for span in found]
    return all(any(start <= mine[0] and mine[1] <= end and (end - start) > (mine[1] - mine[0])
                   for start, end in others) for mine in spans[name])
