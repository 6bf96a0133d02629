"""A short line's typos mended ("Coudl you plese provide you're confirmaton numbr?"): each word the
customer's vocabulary does not hold is replaced by the vocabulary's word it is nearest to, when
they are near enough. Used only on a line nothing of which was understood as written."""
from __future__ import annotations

import re
from difflib import get_close_matches
from functools import cache, lru_cache

from . import vocabulary as words

NEAR_ENOUGH = 0.8  # difflib's ratio: one or two letters wrong, swapped or missing in a word of five or more


@cache
def known_words() -> frozenset[str]:
    """Every word of four letters or more in the vocabulary's patterns."""
    tables = [*words.FACT_WORDS.values(), *words.NOT_HELD.values(), words.ASKING, words.CONSENT, words.CHOICE,
              words.READ_BACK, words.CLOSING]
    return frozenset(word for patterns in tables for pattern in patterns for word in re.findall(r"[a-z]{4,}", pattern))


def spelled_right(line: str) -> str:
    return re.sub(r"[A-Za-z']{4,}", _mended, line)


def _mended(match: re.Match) -> str:
    word = match.group(0)
    lower = word.lower()
    if lower in known_words() or lower in words.SHORTHAND:
        return word
    return _nearest(lower) or word


@lru_cache(maxsize=4096)  # a rep's words recur from line to line; each look costs milliseconds
def _nearest(lower: str) -> str | None:
    """The vocabulary's word nearest to `lower`, when near enough."""
    near = get_close_matches(lower, known_words(), n=1, cutoff=NEAR_ENOUGH)
    return near[0] if near else None
