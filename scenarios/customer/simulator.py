"""The simulated customer's reply: a pure function of what the customer knows and the transcript.

It gives a fact only when asked for it (several at once, in the order asked), confirms a correct
read-back and corrects a wrong one, says it does not know what it does not know, says what it wants
when asked how it can be helped, and otherwise acknowledges what the rep told it. A customer who
said a detail wrong at first (`facts["corrections"]`) corrects it when the rep reads it back, and
keeps to the corrected value from then on.
"""
from __future__ import annotations

from dataclasses import dataclass

from .facts import BY_NAME, FactKind
from .reading import Reading, read

AGENT, CUSTOMER = "agent", "customer"
DONT_KNOW = "I'm sorry, I don't know that."
CONSENT = "Yes, please go ahead."
CORRECTING = "Sorry, I got that wrong."  # opens a correction: the caller said a detail wrong at first  # what every caller answers when asked whether to go ahead
CONFIRMED = "Yes, that's right."
CLOSING = "No, that's everything. Thank you."
ACKNOWLEDGED = "Okay, thank you."


def known_facts(facts: dict, transcript: list[dict] = ()) -> dict:
    """The customer's facts by kind, with the full name made of the first and last when not given;
    a fact the customer has corrected in the call (`facts["corrections"]`) has its corrected value."""
    corrections = facts.get("corrections") or {}
    known = {"consent": CONSENT, **{name: value for name, value in facts.items()
                                    if value is not None and name != "corrections"}}
    known.update({name: corrections[name] for name in corrected(corrections, transcript)})
    if "full_name" not in known and {"first_name", "last_name"} <= set(known):
        known["full_name"] = f"{known['first_name']} {known['last_name']}"
    return known


def reply(facts: dict, transcript: list[dict]) -> str:
    """The customer's answer to the rep's last line (`transcript`: [{"role", "text"}...], the last
    one the agent's)."""
    known = known_facts(facts, transcript)
    line = transcript[-1]["text"] if transcript and transcript[-1]["role"] == AGENT else ""
    reading = read(line, known)
    corrections = facts.get("corrections") or {}
    done = corrected(corrections, transcript)
    owed = [name for name in corrections if name not in done and name in reading.read_back]
    if owed:  # the customer hears the detail read back and notices they said it wrong
        return " ".join(correction(name, corrections[name]) for name in owed)
    parts = [*_read_back(reading, known), *_answers(reading, known)]
    if parts:
        return " ".join(parts)
    if reading.closing:
        return CLOSING
    return DONT_KNOW if reading.question else ACKNOWLEDGED


def corrected(corrections: dict, transcript: list[dict]) -> list[str]:
    """The kinds of fact the customer has already corrected in the call."""
    said = [line["text"] for line in transcript if line["role"] == CUSTOMER]
    return [name for name, value in corrections.items() if any(correction(name, value) in text for text in said)]


def correction(name: str, value) -> str:
    return f"{CORRECTING} {BY_NAME[name].say(value)}"


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


@dataclass(frozen=True)
class RuleCustomer:
    """The default customer: `reply` above. (llm_customer.LLMCustomer is the other kind.)"""

    speaker: str = "rules"  # how the call records which customer answered

    def reply(self, facts: dict, transcript: list[dict]) -> str:
        return reply(facts, transcript)


RULES = RuleCustomer()
