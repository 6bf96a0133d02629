"""What one line of the rep asks the customer, sentence by sentence, as a person listens: which
facts it asks for, whether it asks agreement, offers a choice, reads details back, asks a reason or
a preference, or closes the call. A sentence that only states something asks nothing, whatever
words it holds ("I'll proceed once ...", a summary full of dates and codes)."""
from __future__ import annotations

import datetime as dt
import re
from difflib import SequenceMatcher
from dataclasses import dataclass, field

from . import vocabulary as words
from .facts import BY_NAME, DATE_KINDS, DISTINCT, KINDS, NAME_KINDS, DayOfYear, FactKind, dates_in, unspelled
from .patterns import compiled
from .sentences import sentences
from .typos import spelled_right

AGREE, DECLINE = "agree", "decline"
NEAR_NAME = 0.75  # how alike a name read back must be to the customer's to be heard as a misspelling of it
UNNAMED_DATE_DAYS = 60  # a date read back without naming its kind is judged against a fact this near
_TRAVEL_WORDS = re.compile(r"\b(fly|flying|flight|travel\w*|depart\w*|leav\w*|trip|new date|move|moving|rebook)\b")
_OR_ANOTHER_QUESTION = r",? or (?:would|do|should|shall|can) (?:you|i|we)\b"
_CLAUSE = (r"[;:]| [-–—] |(?:,|,? and|,? but|,? also,?|,? plus) (?=(?:would|do|shall|should|can|may|will) (?:you|i|we)\b)"
           r"|, and (?=which|what|when|if there (?:is|are) any)\b")  # where a sentence's clauses part, before a question of their own
TYPO_LINE_WORDS = 25  # a short line nothing of which was understood is read again with its typos mended
SHORT_LINE_WORDS = 10  # a line this short that names facts asks for them ("no code? ok, email then")
SHORT_QUESTION_WORDS = 5  # "Correct?", "Both right?", "QX7R2A?": a question this short is about what came before
_NOT_THIS = r"\b(rather than|instead of|other than)\s+(a |an |the |your |my )?\w+"  # "rather than cancelling": not the action asked about
_SHORTHAND = re.compile(r"\b(%s)\b" % "|".join(words.SHORTHAND))
_EXAMPLE = re.compile(r"(for example|for instance|e\.g\.|such as)\b")  # illustrates the question before it
_LATER = re.compile(r"\b(once|when) we\b")  # "confirm with yes once we finalize": not yet
_WH_WORD = re.compile(r"\b(what|which|how|when|where|who|whom|whose)\b")
_TYPOGRAPHIC = str.maketrans("‘’ʼ", "'''")  # typeset apostrophes read as the plain one ("you’d")
_REFERS_BACK = re.compile(r"\b(that|this|these|those|everything|all of|above|summary|match\w*)\b")


@dataclass
class Reading:
    asked: list[str] = field(default_factory=list)  # the kinds of fact asked for, in the line's order
    not_held: list[str] = field(default_factory=list)  # facts of other systems asked for ("a user ID")
    read_back: dict[str, list] = field(default_factory=dict)  # kind -> the values the line asks to confirm
    consent: str | None = None  # AGREE or DECLINE: the line asks agreement to an action
    choices: list[list[str]] = field(default_factory=list)  # each pick among options: its sentences, the question last
    fixed: list[str] = field(default_factory=list)  # answers to questions it holds no fact for (vocabulary.FIXED_ANSWERS)
    question: bool = False  # the line asks something (of whatever kind)
    closing: bool = False  # "anything else?"
    confirm_asked: bool = False  # asks whether what it said before is right, with nothing the customer can check

    @property
    def understood(self) -> bool:
        return bool(self.asked or self.not_held or self.read_back or self.consent or self.choices or self.fixed
                    or self.closing or self.confirm_asked)


def read(line: str, known: dict) -> Reading:
    """What `line` asks and reads back; `known` holds the customer's facts by kind (to tell which
    date fact a bare date is read back as, and whether an action asked about is the customer's)."""
    reading = _read(line, known)
    if not reading.understood and len(line.split()) <= TYPO_LINE_WORDS:  # "Coudl you plese provide ..."
        reading = _read(spelled_right(line), known)
    return reading


def refuses(line: str) -> bool:
    """Whether the rep's line turns the request down ("I'm afraid this booking can't be changed")."""
    lower = unspelled(line).lower()
    return mentions(words.REFUSAL, lower) and not mentions(words.NOT_A_REFUSAL, lower)


def _read(line: str, known: dict) -> Reading:
    said = sentences(unspelled(line.translate(_TYPOGRAPHIC)))
    short = len(line.split()) <= SHORT_LINE_WORDS
    reading = _heard(said, known, lambda lower: short and _names_facts(lower, known))
    if not reading.question:  # nothing asked outright: a few words naming facts ask for them ("dob + email")
        reading = _heard(said, known, lambda lower: _names_facts(lower, known))
    if reading.closing and (reading.asked or reading.consent or reading.choices or reading.read_back):
        reading.closing = False  # a closing tacked onto a real question is answered by that answer
    if reading.consent and "request" in reading.asked and _open_next_step(said):
        reading.consent = None  # "if you wish to proceed with X, let me know how you'd like to proceed": open
    return reading


def _open_next_step(said: list[str]) -> bool:
    """Whether the line's only way of asking agreement is a condition ("..., if you'd like to proceed")
    that asks for nothing in its sentence, beside which the line asks what the customer wants to do:
    it leaves the next step to the customer. ("If you'd like to proceed, please give a card" asks
    agreement with the card.)"""
    lowered = [_expanded(sentence.lower()) for sentence in said]
    if any(compiled(words.IF_PROCEEDING).search(lower) and set(_asked_kinds(lower)) - {"request"} for lower in lowered):
        return False
    lowered = [compiled(words.IF_PROCEEDING).sub("", lower) for lower in lowered]
    return not any(_yes_no(words.CONSENT, lower) or _yes_no(words.CONFIRMING, lower) for lower in lowered)


def _heard(said: list[str], known: dict, asks_anyway) -> Reading:
    """The reading of the sentences `said`, in order: each statement kept as what later questions may
    refer back to, each asking sentence heard (`asks_anyway`: what else counts as asking)."""
    reading, stated, told = Reading(), [], []
    for sentence in said:
        lower = _expanded(sentence.lower())
        if _EXAMPLE.match(lower) or mentions(words.STALLING, lower) or \
                not (mentions(words.ASKING, lower) or mentions(words.CONSENT, lower) or asks_anyway(lower)):
            stated.append(sentence)
            told.append(sentence)
            reading.closing |= mentions(words.FAREWELL, lower) or (mentions(words.CLOSING, lower) and
                                                               ("if you" in lower or len(lower.split()) <= 3))
            continue
        reading.question = True
        _hear(reading, sentence, lower, stated, told, known)
        stated = []
    return reading


def _expanded(lower: str) -> str:
    """Chat shorthand spelled out ("pls" -> "please", "u" -> "you")."""
    return _SHORTHAND.sub(lambda m: words.SHORTHAND[m.group(1)], lower)


def _names_facts(lower: str, known: dict) -> bool:
    """A few words that only name facts, with no values ("dob + email", "Title"), or a list of facts
    after a colon ("To finish: (a) gender, (b) date of birth"): a request for them."""
    if re.search(r"\d|@", lower) or _read_back(lower, lower, known):
        return False
    kinds = _asked_kinds(lower)
    return bool(kinds) and (len(lower.split()) <= SHORT_QUESTION_WORDS + 1 or (":" in lower and len(kinds) >= 2))


def _hear(reading: Reading, sentence: str, lower: str, stated: list[str], told: list[str], known: dict) -> None:
    """Add what one asking sentence asks to `reading`; `stated`: the statements just before it, `told`:
    every statement before it in the line (what a read-back question may refer to)."""
    asked = [] if mentions(words.ALREADY_GIVEN, lower) else _asked_kinds(lower)
    not_held = [name for name, patterns in words.NOT_HELD.items() if mentions(patterns, lower)]
    if not (asked or not_held) and stated and compiled(words.PRONOUN_OBJECT).search(lower) and \
            not (mentions(words.CHOICE, lower) or mentions(words.READ_BACK, lower)):
        previous = _expanded(_referent(stated).lower())  # "Could you share both?" asks what was named before
        asked = _asked_kinds(previous)
        not_held = [name for name, patterns in words.NOT_HELD.items() if mentions(patterns, previous)]
    picks = mentions(words.CHOICE, lower) and not _proceed_or_else(lower) and \
        not (_yes_no(words.CONSENT, lower) and mentions(words.OFFERS, lower))  # "add any of these?" offers
    consent = not picks and (_yes_no(words.CONSENT, lower) or (_yes_no(words.CONFIRMING, lower) and not asked
                                                              and (action_families(lower) or mentions(words.GOING_AHEAD, lower))))
    if consent and _offers_alternatives(lower):
        consent, picks = False, True
    if picks and _goes_ahead_then_picks(lower):
        consent = True  # "Please confirm you'd like to proceed, and let me know which card to use" asks both
    if consent and stated and _refers_back(lower) and mentions(words.READ_BACK, stated[-1].lower()) \
            and not (action_families(lower) or mentions(words.GOING_AHEAD, lower)):
        consent = False  # "Let me read back your card: ... All good?" asks whether the details are right
    if picks and not any(name in known for name in asked):
        asked = []  # "Which booking is yours?" to a caller without its code: a pick among them
    asks_then_picks = False  # "I'll need your name, and should I add a bag or insurance?" asks both
    if (consent or picks and _yes_no(words.CONSENT, lower)) and not mentions(words.EXPLICIT_REQUEST, lower):
        asked = _asked_beside_yes_no(lower)  # "Would you like to update your email?" does not ask for the email
        asks_then_picks = picks and bool(asked)
    before = ". ".join(told)
    agreement = _agreement(lower, stated[-1] if stated and _refers_back(lower) else "", known) if consent else None
    checked = {} if agreement == DECLINE else _checked(sentence, lower, before, asked, consent, picks, known)
    if checked and mentions(words.READ_BACK, lower) and _REFERS_BACK.search(lower):
        asked = []  # "Do the name and date of birth above match?" asks to check them, not to say them
    for name, values in checked.items():
        reading.read_back.setdefault(name, []).extend(values)
    reading.asked.extend(name for name in asked if name not in checked and name not in reading.asked)
    reading.not_held.extend(name for name in not_held if name not in reading.not_held)
    reason = _reason(lower)
    if consent:
        reading.consent = reading.consent or agreement
    elif asked or checked:
        reading.fixed.extend([reason] if reason else [])
        if asks_then_picks:
            reading.choices.append([*told, sentence])
    elif mentions(words.REPAIR_CUES, lower):
        pass
    elif reason:
        reading.fixed.append(reason)
    elif picks or mentions(words.WEAK_CHOICE, lower):
        reading.choices.append([*told, sentence])
    elif answer := _fixed_answer(lower):
        reading.fixed.append(answer)
    elif mentions(words.READ_BACK, lower) and ((_refers_back(lower) and told) or _names_the_customer(lower, known)):
        reading.confirm_asked = True
    reading.closing |= mentions(words.CLOSING, lower)


def _checked(sentence: str, lower: str, before: str, asked: list[str], consent: bool, picks: bool,
             known: dict) -> dict[str, list]:
    """The values a sentence asks the customer to confirm: all it states when it reads back or asks
    agreement (or, with none, those of the statements it refers back to: "Is that right?"); else,
    unless it offers a choice, those of a kind it asks about and states ("Is your email
    ada@example.com?"), or, in a short question of values alone ("QX7R2A?"), those whose form
    names their kind."""
    if consent or mentions(words.READ_BACK, lower):
        found = _read_back(sentence, lower, known)
        if not found and before and not mentions(words.GIVE_REQUEST, lower) and \
                (_REFERS_BACK.search(lower) or (not asked and _refers_back(lower))):
            found = _read_back(before, before.lower(), known, near_names=False)
        return found
    if picks:
        return {}
    found = _read_back(sentence, lower, known)
    if len(lower.split()) <= SHORT_QUESTION_WORDS:
        return found
    return {name: values for name, values in found.items() if name in asked}


def _names_the_customer(lower: str, known: dict) -> bool:
    return any(str(known[name]).lower() in lower for name in ("full_name", "last_name") if name in known)


def _refers_back(lower: str) -> bool:
    return bool(_REFERS_BACK.search(lower)) or len(lower.split()) <= SHORT_QUESTION_WORDS


def _referent(stated: list[str]) -> str:
    """What a pronoun object refers to: the items after the last sentence that led into a list, else
    the last statement."""
    leads = [index for index, sentence in enumerate(stated) if sentence.rstrip().endswith(":")]
    return " ".join(stated[leads[-1] + 1:]) if leads and leads[-1] < len(stated) - 1 else stated[-1]


def _fixed_answer(lower: str) -> str | None:
    return next((answer for patterns, answer in words.FIXED_ANSWERS if mentions(patterns, lower)), None)


def _reason(lower: str) -> str | None:
    """The answer to "why?" (asked even beside a fact: "Your email, and may I ask why?")."""
    patterns, answer = words.FIXED_ANSWERS[words.REASON_ANSWER]
    return answer if mentions(patterns, lower) else None


def _yes_no(patterns, lower: str) -> bool:
    """Whether a pattern matches as a yes/no question: not inside a clause that opens with a
    question word ("What changes would you like to make?")."""
    for pattern in patterns:
        for match in compiled(pattern).finditer(lower):
            clause = re.split(r"[,;:]|\b(?:and|but|also)\b", lower[:match.start()])[-1]
            later = re.split(r"[,;:]", lower[match.end():])[0]
            if not _WH_WORD.search(clause) and not _LATER.search(later):
                return True
    return False


def _asked_beside_yes_no(lower: str) -> list[str]:
    """The facts asked in the clauses of a sentence before its yes/no question, or in a question of
    which or what after it ("I'll need your email, and would you like to add insurance?", "Shall I
    go ahead, and which card should I charge?")."""
    clauses = re.split(_CLAUSE, lower)
    first = next((index for index, clause in enumerate(clauses)
                  if _yes_no(words.CONSENT, clause) or _yes_no(words.CONFIRMING, clause)), len(clauses))
    asking = [clause for index, clause in enumerate(clauses) if index != first
              and (mentions(words.ASKING, clause) and (index < first or re.match(r"\s*(which|what|when)\b", clause))
                   or re.match(r"\s*if there (is|are) any\b", clause))]  # "..., and if there are any changes ..."
    return _asked_kinds(" ".join(asking)) if first < len(clauses) else []


def _offers_alternatives(lower: str) -> bool:
    """A yes/no question offering two things ("Would you like to change or cancel it?", "... use the
    certificate, or would you like to add a card?"), unless the first is going ahead or closing."""
    if re.search(_OR_ANOTHER_QUESTION, lower):
        first = re.split(_OR_ANOTHER_QUESTION, lower, maxsplit=1)[0]
        return not (mentions(words.GOING_AHEAD, first) or mentions(words.CLOSING, first))
    return mentions(words.ALTERNATIVES, lower)


def _goes_ahead_then_picks(lower: str) -> bool:
    """A yes/no question about going ahead, then, after ", and", a request to pick ("... proceed with
    the change, and let me know which payment method to use")."""
    head = re.split(r",? and (?=(?:let me know|tell me|please|which|what|could|can)\b)", lower)[0]
    return head != lower and _yes_no(words.CONSENT, head) and mentions(words.GOING_AHEAD, head) \
        and not _offers_alternatives(head)


def _proceed_or_else(lower: str) -> bool:
    """"Would you like to proceed with X, or would you prefer Y?": a yes/no question about going ahead."""
    first = re.split(_OR_ANOTHER_QUESTION, lower)[0]
    return first != lower and mentions(words.GOING_AHEAD, first) and _yes_no(words.CONSENT, first)


def action_families(lower: str) -> list[str]:
    """The kinds of action a text names (words.ACTION_FAMILIES: change, cancel, book)."""
    return [family for family, patterns in words.ACTION_FAMILIES.items() if mentions(patterns, lower)]


def _asked_kinds(lower: str) -> list[str]:
    """The kinds of fact the sentence names, in order, a name inside a longer one's left out."""
    spans = {kind.name: _mentions(kind, lower) for kind in KINDS}
    asked = [name for name, found in spans.items() if found and not _inside_another(name, spans)]
    return sorted(asked, key=lambda name: spans[name][0])


def _agreement(lower: str, before: str, known: dict) -> str:
    """AGREE to the action the customer called for, or to going ahead with what the rep proposed;
    DECLINE an offer of something else (a transfer, insurance, an add-on, another action than its
    own). `before`: the statement the question refers back to ("Would you like that?")."""
    asked = re.split(_OR_ANOTHER_QUESTION, lower)[0]  # the yes/no is about the first thing asked
    if mentions(words.OFFERS, asked) or (mentions(words.OFFER_QUESTIONS, asked) and mentions(words.OFFERS, before.lower())):
        return DECLINE
    if mentions(words.TERMS, asked):
        return AGREE
    named = set(action_families(re.sub(_NOT_THIS, "", f"{before} {asked}".lower())))
    if named:
        return AGREE if named & set(action_families(str(known.get("request", "")).lower())) else DECLINE
    if mentions(words.OFFERS, before.lower()) or (mentions(words.OFFER_QUESTIONS, asked) and not mentions(words.GOING_AHEAD, asked)):
        return DECLINE
    return AGREE


def _read_back(text: str, lower: str, known: dict, near_names: bool = True) -> dict[str, list]:
    """Values the text states for a kind the customer knows: of a kind the text names, or whose values
    name their kind (a code, an email, a card, a departure time). A date goes to the date fact it
    is read back as (see _date_kind)."""
    found: dict[str, list] = {}
    for kind in KINDS:
        if kind.spot is None or kind.name in DATE_KINDS or kind.name not in known:
            continue
        values = kind.spot(text)
        if values and (kind.name in DISTINCT or kind.name in NAME_KINDS or kind.is_asked(lower)):
            found[kind.name] = values
    for name, values in (_near_names(text, known) if near_names else {}).items():
        found.setdefault(name, values)
    named = [name for name in DATE_KINDS if name in known and
             (BY_NAME[name].is_asked(lower) or (name == "travel_date" and _TRAVEL_WORDS.search(lower)))]
    for day in dates_in(text):
        name = _date_kind(day, named, known)
        if name:
            found.setdefault(name, []).append(day.near(known[name]) if isinstance(day, DayOfYear) else day)
    return found


def _near_names(text: str, known: dict) -> dict[str, list]:
    """The customer's first and last names read back in any words: its own, or one a letter or two
    away ("Okafer" for Okafor)."""
    found = {}
    for name in ("first_name", "last_name"):
        own = str(known.get(name, "")).casefold()
        said = [word.casefold() for word in re.findall(r"\b[A-Z][a-zA-Z'’-]{2,}\b", text)] if own else []
        near = [word for word in said if word == own or SequenceMatcher(None, word, own).ratio() >= NEAR_NAME]
        if near:
            found[name] = near
    return found


def _date_kind(day, named: list[str], known: dict) -> str | None:
    """The date fact a read-back date is heard as: the nearest of those the sentence names, else the
    nearest the customer knows if it is within UNNAMED_DATE_DAYS, else none."""
    candidates = named or [name for name in DATE_KINDS if name in known]
    distance = {name: _distance(day, known[name]) for name in candidates}
    nearest = min(distance, key=distance.get, default=None)
    if nearest is None or (not named and distance[nearest] > UNNAMED_DATE_DAYS):
        return None
    return nearest


def _distance(day, fact: dt.date) -> int:
    near = day.near(fact) if isinstance(day, DayOfYear) else day
    return abs((near - fact).days) if near else 10 ** 6


def mentions(patterns, lower: str) -> bool:
    """Whether the text matches any of the patterns."""
    return any(compiled(pattern).search(lower) for pattern in patterns)


def _mentions(kind: FactKind, lower: str) -> list[tuple[int, int]]:
    """Where the sentence asks for this kind, in order."""
    return sorted(match.span() for pattern in kind.asked for match in compiled(pattern).finditer(lower))


def _inside_another(name: str, spans: dict[str, list[tuple[int, int]]]) -> bool:
    """Every mention of the kind lies within a longer mention of another ("last name" in "first and
    last name")."""
    others = [span for other, found in spans.items() if other != name for span in found]
    return all(any(start <= mine[0] and mine[1] <= end and (end - start) > (mine[1] - mine[0])
                   for start, end in others) for mine in spans[name])
