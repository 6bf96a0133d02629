"""The simulated customer's reply: a pure function of what the customer knows and the transcript.

It gives a fact only when asked for it (several at once, in the order asked), confirms a correct
read-back and corrects a wrong one, says it does not know what it does not know, says what it wants
when asked how it can be helped, and otherwise acknowledges what the rep told it.
"""
from __future__ import annotations

from .facts import BY_NAME, FactKind
from .reading import Reading, read

AGENT, CUSTOMER = "agent", "customer"
DONT_KNOW = "I'm sorry, I don't know that."
CONFIRMED = "Yes, that's right."
CLOSING = "No, that's everything. Thank you."
ACKNOWLEDGED = "Okay, thank you."


def known_facts(facts: dict) -> dict:
    """The customer's facts by kind, with the full name made of the first and last when not given."""
    known = {name: value for name, value in facts.items() if value is not None}
    if "full_name" not in known and {"first_name", "last_name"} <= set(known):
        known["full_name"] = f"{known['first_name']} {known['last_name']}"
    return known


def reply(facts: dict, transcript: list[dict]) -> str:
    """The customer's answer to the rep's last line (`transcript`: [{"role", "text"}...], the last
    one the agent's)."""
    known = known_facts(facts)
    line = transcript[-1]["text"] if transcript and transcript[-1]["role"] == AGENT else ""
    reading = read(line, known)
    parts = [*_read_back(reading, known), *_answers(reading, known)]
    if parts:
        return " ".join(parts)
    if reading.closing:
        return CLOSING
    return DONT_KNOW if reading.question else ACKNOWLEDGED


def _read_back(reading: Reading, known: dict) -> list[str]:
    if not reading.read_back:
        return []
    wrong = [kind for kind in _kinds(reading.read_back)
             if kind.name in known and any(value != kind.shown(known[kind.name]) for value in reading.read_back[kind.name])]
    if not wrong:
        return [CONFIRMED]
    return ["No, that's not right."] + [kind.say(known[kind.name]) for kind in wrong]


def _answers(reading: Reading, known: dict) -> list[str]:
    said = [kind.say(known[kind.name]) for kind in _kinds(reading.asked) if kind.name in known]
    unknown = [kind.name for kind in _kinds(reading.asked) if kind.name not in known]
    if unknown:
        said.append(f"I'm sorry, I don't know my {' or '.join(name.replace('_', ' ') for name in unknown)}.")
    return said


def _kinds(names) -> list[FactKind]:
    return [BY_NAME[name] for name in names]
