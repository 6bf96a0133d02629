"""Variant 3, talkative: wraps each fact in a sentence or two of its life, and first mentions a
fact that is not asked and does not matter (another booking's code, a relative's flight date, a
son's birthday, the old flight's time), which a careless rep would take for the answer. Tests
whether the rep picks the caller's own fact out of the talk."""
from __future__ import annotations

import datetime as dt
import random
import string

from ..facts import BY_NAME
from ..simulator import ACKNOWLEDGES, AGREES, FACT, Part, Turn, speak
from .base import CustomerVariant
from .history import draw, replies_so_far

SISTERS, SONS, COUSINS = ("Emma", "Maria", "Grace", "Nora"), ("Tom", "Daniel", "Peter", "Luis"), ("Sam", "Alex", "Robin")
OPENERS = ("Oh, of course, let me see.", "Sure, just a second, I have it all written down here.",
           "Right, I knew you'd ask for that.", "Let me think. Yes.")
CHATTER = ("It's been quite a week, honestly.", "My daughter helped me book it, she's much better with these things.",
           "I've been meaning to sort this out for days.")


def speak_at_length(turn: Turn) -> str:
    rng = draw(turn, f"talk:{replies_so_far(turn)}")  # the talk changes from reply to reply
    parts = []
    for part in turn.parts:
        if part.kind == FACT and part.fact in BY_NAME and part.fact in turn.known:
            # the facts beside the caller's stay the same for the whole call
            beside = _beside(part, turn.known[part.fact], draw(turn, f"beside:{part.fact}"))
            parts += [Part(FACT, rng.choice(OPENERS)), *beside, part]
        elif part.kind in (AGREES, ACKNOWLEDGES):
            parts += [part, Part(part.kind, rng.choice(CHATTER))]
        else:
            parts.append(part)
    return speak(Turn(turn.facts, turn.transcript, turn.known, turn.reading, parts))


def _beside(part: Part, value, rng: random.Random) -> list[Part]:
    """A fact of the same kind that is not the caller's, said before its own."""
    if part.fact == "confirmation_code":
        other = _other_code(value, rng)
        return [Part(FACT, f"I also have a booking for my sister {rng.choice(SISTERS)}, that's {other}, but that one's fine.")]
    if part.fact == "travel_date" and isinstance(value, dt.date):
        other = value + dt.timedelta(days=rng.choice((-9, -5, -3, 3, 5, 9)))
        return [Part(FACT, f"My cousin {rng.choice(COUSINS)} is flying on {other:%B} {other.day}, {other.year}, "
                           f"but that's a different trip.")]
    if part.fact == "date_of_birth" and isinstance(value, dt.date):
        other = dt.date(value.year + rng.randint(22, 34), rng.randint(1, 12), rng.randint(1, 28))
        return [Part(FACT, f"My son {rng.choice(SONS)} was born on {other:%B} {other.day}, {other.year}, "
                           f"and he always teases me about my age.")]
    if part.fact == "departure_time":
        return [Part(FACT, f"My old flight left at {_other_time(value, rng)}, which never suited me.")]
    if part.fact == "last_name":
        return [Part(FACT, f"My maiden name was {rng.choice(('Jones', 'Becker', 'Moreau', 'Santos'))}.")]
    if part.fact == "email":
        return [Part(FACT, f"I used to have {rng.choice(COUSINS).lower()}.family@example.net, but nobody reads that any more.")]
    return []


def _other_code(code: str, rng: random.Random) -> str:
    while True:
        other = "".join(rng.choice(string.ascii_uppercase) for _ in range(4)) + str(rng.randint(10, 99))
        if other != code:
            return other


def _other_time(clock: str, rng: random.Random) -> str:
    hour = (int(clock.split(":")[0]) + rng.choice((2, 3, 4, 5))) % 12 or 12
    return f"{hour}:{rng.choice(('05', '20', '35', '50'))}{rng.choice(('am', 'pm'))}"


VARIANT = CustomerVariant(3, "talkative", "each fact wrapped in talk, beside a fact of the same kind that is not "
                                          "the caller's: the rep must pick out the right one",
                          speak=speak_at_length,
                          manner="You are chatty: wrap each fact in a sentence or two about your life, and before it "
                                 "mention a similar fact that is not yours and does not matter (your sister's booking "
                                 "code, a cousin's flight date, your son's birthday), saying whose it is.")
