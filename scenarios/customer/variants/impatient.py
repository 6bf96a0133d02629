"""Variant 5, impatient: answers, but asks how long this will take, objects when asked for a fact
it already gave ("I already told you that."), and hangs up when asked for the same fact a third
time. Tests whether the rep keeps track of what it was told."""
from __future__ import annotations

from ..simulator import FACT, Part, Turn, speak
from .base import CustomerVariant
from .history import asked_lines, replies_so_far

TOLD_YOU = "I already told you that."
HANGING_UP = "I've told you that twice already. I'm hanging up."
HURRY = {0: "How long is this going to take?", 2: "Can we speed this up, please?"}  # by the reply's number


def speak_impatiently(turn: Turn) -> str:
    lines = asked_lines(turn)
    asked = lines[-1] if lines else []
    most = max((sum(name in line for line in lines) for name in asked), default=0)
    if most >= 3:
        return HANGING_UP
    parts = ([Part(FACT, TOLD_YOU)] if most == 2 else []) + turn.parts
    hurry = HURRY.get(replies_so_far(turn))
    return speak(Turn(turn.facts, turn.transcript, turn.known, turn.reading,
                      parts + ([Part(FACT, hurry)] if hurry else [])))


def ends_call(text: str) -> bool:
    """The end-of-call mark: a reply (the rule-based caller's, or the LLM customer's) ending with HANGING_UP."""
    return text.rstrip().rstrip('"”').endswith(HANGING_UP)


VARIANT = CustomerVariant(5, "impatient", "asks how long this takes, objects to a question asked twice and hangs up "
                                          "on the third", speak=speak_impatiently, ends_call=ends_call,
                          manner="You are in a hurry: answer, but ask how long this will take; when asked for "
                                 "something you already gave, say \"I already told you that.\" before answering; if "
                                 f"asked for the same thing a third time, end the call by saying exactly \"{HANGING_UP}\"")
