"""The simulated customer's reply: a pure function of what the customer knows and the transcript.

It hears the rep's line sentence by sentence (reading.py) and answers, in this order: whether a
read-back is right (correcting what is not), each fact asked for (in the order asked; a fact of
another system it says it does not have), a pick among the options offered (from its own wishes:
choosing.py), a reason or preference (a fixed answer that changes nothing), and agreement when it
is asked to agree to an action (yes to its own request, no to an offer of something else). A
closing gets its goodbye, a statement an acknowledgement, and a question it cannot make out a
request to say what is needed. A customer who said a detail wrong at first (`facts["corrections"]`)
corrects it when the rep reads it back, and keeps to the corrected value from then on; one with a
will of its own (`facts["pushback"]`, will.py) insists after a refusal before it accepts; one with a
budget (`facts["budget"]`, will.py) says no to a total above it, and yes to a fare upgrade within it.
A caller asking about another person's booking (`facts[SOMEONE_ELSE]`) says it is not the passenger
when asked for that booking's code or date of birth (asked to verify it again).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace

from . import agenda
from .choosing import choose
from .facts import BOOKED_ON, BY_NAME, UNSAID_WHEN_MISSING, FactKind
from .reading import AGREE, DECLINE, Reading, read
from .will import insisting, spending, takes_transfer

AGENT, CUSTOMER = "agent", "customer"
TRANSFER = "transfer"  # the line that ends a call transferred to a supervisor: the agent's summary
HOLDING = "Thank you. I'll hold for the supervisor."  # the customer's last line of a transferred call
CONSENT = "Yes, please go ahead."  # what every caller answers when asked whether to go ahead
DECLINED = "No, thank you."  # to an offer of something it did not call for
CORRECTING = "Sorry, I got that wrong."  # opens a correction: the caller said a detail wrong at first
CONFIRMED = "Yes, that's right."
NOT_RIGHT = "No, that's not right."
CLOSING = "No, that's everything. Thank you."
ACKNOWLEDGED = "Okay, thank you."
REPAIR = "Sorry, what do you need from me?"
# A request about a booking of another person's (`facts[agenda.SOMEONE_ELSE]`): the caller has none of its facts.
SOMEONE_ELSE = agenda.SOMEONE_ELSE
BOOKINGS_OWN = ("confirmation_code", "date_of_birth", "email")  # what such a caller has not of that booking
NOT_THE_PASSENGER = "I'm sorry, I'm not the passenger, so I don't have its {lacking}."
# What each part of a reply is (Part.kind), so that a customer variant can say it its own way.
INSISTS, CORRECTION, CONFIRMS, OBJECTS, FACT, LACKING, CHOICE, FIXED = (
    "insists", "correction", "confirms", "not right", "fact", "lacking", "choice", "fixed")
AGREES, DECLINES, CLOSES, ASKS_AGAIN, ACKNOWLEDGES = "agrees", "declines", "closes", "asks again", "acknowledges"
RAISES = "raises"  # brings up the caller's next request (agenda.py)
RIGHT_VALUE = "right value"  # a fact read back wrong, said as it is


@dataclass(frozen=True)
class Part:
    """One thing the customer says in a reply: what it is, its plain words, and the kind of fact it gives."""
    kind: str
    text: str
    fact: str | None = None


@dataclass
class Turn:
    """The customer's reply before it is said: the facts, the call so far, what the rep's last line
    asked (None when the customer insists, whatever was asked) and the parts of the answer, in order.
    `asked_lines`: what each of the rep's lines asked, once read (variants/history.py keeps it)."""
    facts: dict
    transcript: list[dict]
    known: dict
    reading: Reading | None
    parts: list[Part]
    asked_lines: list[list[str]] | None = field(default=None, repr=False, compare=False)


def known_facts(facts: dict, transcript: list[dict] = ()) -> dict:
    """The customer's facts by kind, with the full name made of the first and last when not given,
    and its request as what it says of its trip; a fact the customer has corrected in the call
    (`facts["corrections"]`) has its corrected value."""
    corrections = facts.get("corrections") or {}
    known = {"consent": CONSENT, **{name: value for name, value in facts.items()
                                    if value is not None and name != "corrections"}}
    known.update({name: corrections[name] for name in corrected(corrections, transcript)})
    if "full_name" not in known and {"first_name", "last_name"} <= set(known):
        known["full_name"] = f"{known['first_name']} {known['last_name']}"
    if "request" in known:
        known.setdefault("trip", known["request"])
    return known


def reply(facts: dict, transcript: list[dict], variant=None) -> str:
    """The customer's answer to the rep's last line (`transcript`: [{"role", "text"}...], the last
    one the agent's), as the customer variant `variant` says it (None: variant 0, the plain caller;
    scenarios/customer/variants/)."""
    turn = decide(facts, transcript)
    return variant.speak(turn) if variant is not None else speak(turn)


def speak(turn: Turn) -> str:
    """What the plain caller says: the parts of its reply in order, each once."""
    return " ".join(_unique([part.text for part in turn.parts]))


def decide(facts: dict, transcript: list[dict]) -> Turn:
    """What the customer answers to the rep's last line, part by part, before any variant says it its way."""
    facts = agenda.in_focus(facts, transcript, CUSTOMER)
    known = known_facts(facts, transcript)
    line = transcript[-1]["text"] if transcript and transcript[-1]["role"] == AGENT else ""
    insisted = insisting(facts, transcript, AGENT, CUSTOMER)
    if insisted:
        return Turn(facts, transcript, known, None, [Part(INSISTS, insisted)])
    reading = read(line, known)
    corrections = facts.get("corrections") or {}
    done = corrected(corrections, transcript)
    owed = [name for name in corrections if name not in done and name in reading.read_back]
    if owed:  # the customer hears the detail read back and notices they said it wrong
        return Turn(facts, transcript, known, reading,
                    [Part(CORRECTION, correction(name, corrections[name]), name) for name in owed])
    if reading.consent == DECLINE and takes_transfer(facts, transcript, CUSTOMER):
        reading.consent = AGREE
    reading.consent = spending(facts, line, reading.consent)
    checked, wrong = _read_back(reading, known)
    parts = [*checked, *_answers(reading, known), *_choices(reading, known),
             *(Part(FIXED, text) for text in reading.fixed)]
    if reading.consent and not wrong:
        parts.append(_agreement(reading, parts))
    raised = agenda.next_request(facts, transcript, reading.closing, bool(reading.consent), AGENT, CUSTOMER)
    if raised:
        opener = Part(ACKNOWLEDGES, agenda.YES_MORE if reading.closing else ACKNOWLEDGED)
        parts = [part for part in parts if part.kind != CLOSES] or [opener]
        return Turn(facts, transcript, known, reading, [*parts, Part(RAISES, raised)])
    if not parts:
        parts = [Part(CLOSES, CLOSING) if reading.closing else
                 Part(ASKS_AGAIN, REPAIR) if reading.question else Part(ACKNOWLEDGES, ACKNOWLEDGED)]
    return Turn(facts, transcript, known, reading, parts)


def _agreement(reading: Reading, parts: list[Part]) -> Part:
    """The answer to a request for agreement: yes, a goodbye (a closing asked alone), no, or the
    caller's own words (a budget passed)."""
    if reading.consent == AGREE:
        return Part(AGREES, CONSENT)
    if reading.closing and not parts:
        return Part(CLOSES, CLOSING)
    return Part(DECLINES, DECLINED) if reading.consent == DECLINE else Part(FIXED, reading.consent)


def corrected(corrections: dict, transcript: list[dict]) -> list[str]:
    """The kinds of fact the customer has already corrected in the call."""
    said = [line["text"] for line in transcript if line["role"] == CUSTOMER]
    return [name for name, value in corrections.items() if any(correction(name, value) in text for text in said)]


def correction(name: str, value) -> str:
    return f"{CORRECTING} {BY_NAME[name].say(value)}"


def _read_back(reading: Reading, known: dict) -> tuple[list[Part], bool]:
    """What the customer says of the details read back, and whether any was wrong. A kind read back
    with several values (a summary naming the old date and the new) is right when one is the
    customer's. Agreement asked with the details answers for them."""
    judged = [kind for kind in _kinds(reading.read_back) if kind.name in known]
    wrong = [kind for kind in judged
             if all(value != kind.shown(known[kind.name]) for value in reading.read_back[kind.name])]
    if wrong:
        return [Part(OBJECTS, NOT_RIGHT)] + [Part(RIGHT_VALUE, kind.say(known[kind.name]), kind.name)
                                             for kind in wrong], True
    heard = judged or reading.confirm_asked
    return ([Part(CONFIRMS, CONFIRMED)] if heard and not reading.consent else []), False


def _answers(reading: Reading, known: dict) -> list[Part]:
    # about another person's booking, the caller's own code, date of birth and email are not that booking's
    withheld = BOOKINGS_OWN if known.get(SOMEONE_ELSE) else ()
    said = [Part(FACT, kind.say(known[kind.name]), kind.name) for kind in _kinds(reading.asked)
            if kind.name in known and kind.name not in withheld]
    missing = [kind.name.replace("_", " ") for kind in _kinds(reading.asked)
               if (kind.name not in known or kind.name in withheld) and kind.name not in UNSAID_WHEN_MISSING]
    if known.get(SOMEONE_ELSE) and missing:
        return [*said, Part(LACKING, NOT_THE_PASSENGER.format(lacking=" or ".join(missing)))]
    lacking = [f"my {name}" for name in missing] + reading.not_held
    if lacking:
        said.append(Part(LACKING, f"I'm sorry, I don't have {' or '.join(lacking)}."))
    return said


def _choices(reading: Reading, known: dict) -> list[Part]:
    return [Part(CHOICE, choose(said, known)) for said in reading.choices]


def _kinds(names) -> list[FactKind]:
    return [BY_NAME[name] for name in names]


def _unique(parts: list[str]) -> list[str]:
    return list(dict.fromkeys(parts))


@dataclass(frozen=True)
class RuleCustomer:
    """The default customer: `reply` above. (llm_customer.LLMCustomer is the other kind.)"""

    speaker: str = "rules"  # how the call records which customer answered

    variant: object = None  # the customer variant that speaks (scenarios/customer/variants/); None: 0
    booked_on: dt.date | None = None  # the day its own booking flies, which a caller without its code tells

    def speaking(self, variant, booked_on: str | None) -> RuleCustomer:
        """This customer as a scenario's caller: speaking as customer variant `variant`."""
        return replace(self, variant=variant, booked_on=dt.date.fromisoformat(booked_on) if booked_on else None)

    def reply(self, facts: dict, transcript: list[dict]) -> str:
        known = {**facts, BOOKED_ON: self.booked_on} if self.booked_on else facts
        return reply(known, transcript, self.variant)

    def ends_call(self, text: str) -> bool:
        """Whether the reply `text` hangs up (an impatient caller asked the same thing thrice)."""
        return self.variant is not None and self.variant.ends_call(text)


RULES = RuleCustomer()
