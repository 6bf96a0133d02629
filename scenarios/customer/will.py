"""The customer's will of its own (issue 35): a caller whose facts hold `pushback` insists after
the rep refuses, once per argument it has (an emergency, what an earlier rep promised, loyalty, an
exception, a supervisor), each time with the next one, and accepts the refusal after the last.
A pure function of the facts and the transcript, like every reply: how far the customer has got is
read from what it has already said."""
from __future__ import annotations

import re

from .patterns import compiled
from .reading import AGREE, refuses
from .vocabulary import AMOUNTS, FARE_UPGRADE, SUPERVISOR_OFFER

ACCEPTS = "I understand. I'll leave it as it is, then."
OVER_BUDGET = "Hmm, that's more than I can spend. Please leave the booking as it is."


def insisting(facts: dict, transcript: list[dict], agent: str, customer: str) -> str | None:
    """The customer's answer to a refusal when it has a will of its own: its next argument, or, when
    it has used them all, that it accepts; None when the rep's last line refuses nothing or the
    customer has no will."""
    arguments = (facts.get("pushback") or {}).get("arguments") or []
    if not arguments or not transcript or transcript[-1]["role"] != agent or not refuses(transcript[-1]["text"]):
        return None
    said = [line["text"] for line in transcript if line["role"] == customer]
    used = sum(1 for argument in arguments if _said_in(argument, said))
    if used < len(arguments):
        return arguments[used]
    return ACCEPTS if not _said_in(ACCEPTS, said) else None


def _said_in(sentence: str, lines: list[str]) -> bool:
    """Whether one of the customer's lines said `sentence`: a variant may say more around it
    ("How long is this going to take?", "I already told you that.")."""
    return any(sentence in line for line in lines)


def takes_transfer(facts: dict, transcript: list[dict], customer: str) -> bool:
    """Whether the customer says yes to being put through to a supervisor: it wants what only one may
    grant (`facts["supervisor"]`), or it has asked for one in the call; the rep's last line offers it."""
    asked = any(line["role"] == customer and re.search(r"\bsupervisor\b", line["text"], re.I) for line in transcript)
    offered = bool(transcript) and any(compiled(pattern).search(transcript[-1]["text"].lower()) for pattern in SUPERVISOR_OFFER)
    return offered and (bool(facts.get("supervisor")) or asked)


def held(facts: dict, transcript: list[dict], agent: str, customer: str) -> int:
    """How many times the rep held the rule: the customer's arguments answered by another refusal."""
    arguments = (facts.get("pushback") or {}).get("arguments") or []
    return sum(1 for line, answer in zip(transcript, transcript[1:])
               if line["role"] == customer and any(_said_in(argument, [line["text"]]) for argument in arguments)
               and answer["role"] == agent and refuses(answer["text"]))


def spending(facts: dict, line: str, consent: str | None) -> str | None:
    """A caller with a budget (`facts["budget"]`, its `limit` None when it named none) asked to go
    ahead: OVER_BUDGET (or the budget's `instead`, what it asked for in that case) when the highest
    amount the line names passes the limit; else AGREE, also
    to a fare upgrade, which it takes as the way to its own change (another offer keeps `consent`).
    `consent` as it was when the caller has no budget or is not asked."""
    budget = facts.get("budget")
    if budget is None or consent is None:
        return consent
    lower = line.lower()
    named = [float(amount.replace(",", "")) for pattern in AMOUNTS for amount in compiled(pattern).findall(lower)]
    if budget.get("limit") is not None and named and max(named) > float(budget["limit"]):
        return budget.get("instead") or OVER_BUDGET  # what the caller wants done then, if it said
    if consent != AGREE and any(compiled(pattern).search(lower) for pattern in FARE_UPGRADE):
        return AGREE
    return consent

