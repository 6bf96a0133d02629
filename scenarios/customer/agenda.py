"""A caller with several requests (the expert suite): which of them it has brought up so far, the
facts of those in play, and when it brings up the next one.

The customer's facts then hold `requests`, in the order the caller means to raise them, each
`{"says": its words, "reveal": how it comes up, "handled": values the rep says once it is dealt
with, "facts": what the caller knows of it}`. The first is said in the opening line. A later one
comes up when the rep asks whether there is anything else, or (`reveal` AFTER) as soon as the rep
has said every value the one before waits for. A request with a `revision` is taken back in the
caller's next line ("Actually, I've changed my mind..."): what it wants is the revision's. Like every
reply, a pure function of the facts and the transcript: a request has come up when a customer line
holds its words.
"""
from __future__ import annotations

from .told import said

OPENING, AFTER, ASKED = "opening", "after", "asked"  # how a request comes up
REVEALS = (OPENING, AFTER, ASKED)
ONE_MORE = "There's one more thing."  # how the caller brings up its next request
YES_MORE = "Yes, actually."  # its answer to "anything else?" when it has more
SOMEONE_ELSE = "someone_else"  # a request's fact: it is about another person's booking (while it is the latest)


def requests(facts: dict) -> list[dict]:
    return facts.get("requests") or []


def raised(facts: dict, transcript: list[dict], customer: str) -> int:
    """How many of the caller's requests it has brought up so far (always in order)."""
    lines = [line["text"] for line in transcript if line["role"] == customer]
    count = 0
    for request in requests(facts):
        if not any(request["says"] in line for line in lines):
            break
        count += 1
    return count


def in_focus(facts: dict, transcript: list[dict], customer: str) -> dict:
    """The facts with those of every request brought up so far (a later request's replace an
    earlier one's of the same kind: the caller answers for the request in hand, and it is about
    another person's booking only while that request is the latest); its `request` is the words of
    the latest."""
    asked = requests(facts)[:raised(facts, transcript, customer)]
    if not asked:
        return facts
    merged = dict(facts)
    for request in asked:
        merged.update(request["facts"])
    latest = asked[-1]
    if not latest["facts"].get(SOMEONE_ELSE):
        merged.pop(SOMEONE_ELSE, None)  # a later request is the caller's own business again
    revised = "revision" in latest and _said(latest["revision"], transcript, customer)
    merged["request"] = latest["revision"] if revised else latest["says"]
    return merged


def _said(words: str, transcript: list[dict], role: str) -> bool:
    return any(words in line["text"] for line in transcript if line["role"] == role)


def next_request(facts: dict, transcript: list[dict], closing: bool, agreeing: bool, agent: str,
                 customer: str) -> str | None:
    """The words that bring up the caller's next request now, or None: the revision of the request
    just brought up, if it has one; else the next request, when the rep asks whether there is
    anything else (`closing`), or by itself once the one before was dealt with (the rep has said
    every value it waits for, and its last line asks no agreement: `agreeing`)."""
    pending = requests(facts)
    count = raised(facts, transcript, customer)
    if count and "revision" in pending[count - 1] and not _said(pending[count - 1]["revision"], transcript, customer):
        return pending[count - 1]["revision"]
    if not count or count >= len(pending):
        return None
    upcoming, before = pending[count], pending[count - 1]
    rep_lines = [line["text"] for line in transcript if line["role"] == agent]
    handled = bool(before["handled"]) and all(said(value, rep_lines) for value in before["handled"])
    if closing or (upcoming["reveal"] == AFTER and handled and not agreeing):
        return f"{ONE_MORE} {upcoming['says']}"
    return None
