"""Whether a line says a value: an amount as a number, anything else as words in any case. The
judge of a call (conversation_scoring.py) and a caller waiting to hear that its request was
handled (agenda.py) read the rep's lines alike."""
from __future__ import annotations

import re

_AMOUNT = re.compile(r"^\d+\.\d{2}$")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def said(value: str, lines: list[str]) -> bool:
    """Whether a line says `value`: an amount as a number, anything else as words (any case)."""
    if _AMOUNT.match(value):
        wanted = round(float(value), 2)
        return any(round(float(number.replace(",", "")), 2) == wanted
                   for line in lines for number in _NUMBER.findall(line))
    return any(_words_pattern(value).search(line) for line in lines)


def _words_pattern(value: str) -> re.Pattern:
    """The words in any case, joined by spaces or hyphens, a last plural s optional: "24 hours"
    is also "24-hour"."""
    words = [re.escape(word) for word in value.split()]
    if words[-1].endswith("s"):
        words[-1] = words[-1][:-1] + "s?"
    return re.compile(r"(?<!\w)" + r"[\s-]+".join(words) + r"(?!\w)", re.I)
