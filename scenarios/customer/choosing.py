"""A pick among the options a rep offers, made from the customer's own wishes and named the way the
rep named it: the flight leaving at the time (and on the day) it wants, or the one its request
describes ("the cheapest Flex fare arriving before 4:35pm"); its own booking among several (by its
code, or by its travel date when it has no code); itself among the passengers; the fare family,
contact or payment its facts point to; the action it called for. With no wish about the options,
any will do."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from .facts import BY_NAME, DayOfYear, codes_in, dates_in
from .patterns import compiled
from .reading import action_families, mentions
from .vocabulary import ACTION_LEADS, AS_IT_IS, CARRYING_ON, OFFERING_VERBS, OFFERS

LABEL = re.compile(r"\b(?:[A-Z]{2,3} ?\d{2,4}|(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6})\b")  # CR1011, QX7R2A
PRICE = re.compile(r"\$\s?(\d[\d,]*(?:\.\d\d)?)")
CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))? ?([ap])\.?m\.?(?!\w)|\b([01]?\d|2[0-3]):([0-5]\d)\b", re.I)
PARTING = re.compile(r",|;| (and|while|plus|then|or|but|whereas) | [-–—] ")  # between two options in one sentence
ARRIVING = re.compile(r"\b(arr\w*|lands?|landing|gets? in)\b", re.I)
FARES = ("Basic", "Standard", "Flex")
NO_WISH = "Either is fine with me."
NONE_OF_THEM = "None of those, I'm afraid."
NEITHER = "Neither, thank you."
# What an action offered is to the customer (_action_kind).
WISHED, GOING_ON, UNCHANGED, ANOTHER, OFFER = "wished", "going ahead", "as it is", "another action", "offer"
# An action that names no kind of request (change, cancel, book), by the first of these its words match.
KIND_CUES = ((OFFERS, OFFER), (AS_IT_IS, UNCHANGED), (CARRYING_ON, GOING_ON), (OFFERING_VERBS, OFFER))


@dataclass
class Option:
    """One option as the rep described it: its name, and what the text says of it."""
    label: str
    text: str = ""
    departs: list[int] = field(default_factory=list)  # minutes after midnight
    arrives: list[int] = field(default_factory=list)
    prices: list[float] = field(default_factory=list)


def choose(said: list[str], known: dict) -> str:
    """The customer's pick among the options the sentences `said` offer (the question last)."""
    fare_asked = re.search(r"\b(fares?|famil(y|ies)|class)\b", said[-1], re.I)
    picks = (_fare,) if fare_asked else ()
    for pick in (*picks, _action, _contact, _passenger, _flight, _wished_flight, _booking, _fare, _date,
                 _open_flight):
        answer = pick(said, known)
        if answer:
            return answer
    return NO_WISH


def _action(said: list[str], known: dict) -> str | None:
    """Between actions offered ("Shall I keep the booking or move you to the later flight?"), the one
    it called for; else going ahead rather than an offer or leaving things as they are ("charge the
    card on file, or would you rather I look at other dates?"); neither when it wants none of them
    (with its wish, unless all are offers). Else, when the question names several kinds of action
    ("change or cancel"), what it called for; None when it offers no actions."""
    actions, wish = _actions(said[-1]), _wish(known)
    kinds = [_action_kind(action, wish) for action in actions]
    if len(actions) >= 2 and None not in kinds:
        for kind in (WISHED, GOING_ON):
            if kinds.count(kind) == 1 and set(kinds) <= {kind, UNCHANGED, ANOTHER, OFFER}:
                action = actions[kinds.index(kind)]
                return f"Please {_as_said_back(action)}." if " " in action else wish
        if set(kinds) <= {UNCHANGED, ANOTHER, OFFER}:
            return NEITHER if set(kinds) == {OFFER} else f"{NEITHER} {wish}"
    offered = set(action_families(said[-1].lower()))
    return wish if len(offered) >= 2 and offered & set(action_families(wish.lower())) else None


def _actions(question: str) -> list[str]:
    """The actions a yes/no question offers, each as the rep said it after its lead ("shall I",
    "would you rather I"); one said without its verb takes the first one's ("add a bag or seat
    selection"). None unless the first has a lead and each other is an action or a thing."""
    pieces = [piece.strip(" ,.?!-–—") for piece in re.split(r",? \bor\b ", question.strip())]
    actions = []
    for piece in pieces:
        lead = next((match for pattern in ACTION_LEADS if (match := compiled(pattern, re.I).match(piece))), None)
        if lead:
            actions.append(piece[lead.end():])
        elif not actions or re.match(r"(\w+ing|by|for|to|with|in|on|at|from|something|anything|other|another|not|"
                                     r"perhaps|maybe|just)\b", piece, re.I):
            return []
        else:
            actions.append(piece if _is_verb(piece.split()[0].lower()) else f"{actions[0].split()[0]} {piece}")
    return actions


def _is_verb(word: str) -> bool:
    """Whether a word is one of the verbs of the actions a rep offers (its request's, going ahead,
    leaving as it is, an offer)."""
    return bool(action_families(word)) or mentions((*CARRYING_ON, *AS_IT_IS, *OFFERING_VERBS), word)


def _action_kind(action: str, wish: str) -> str | None:
    """What an action is to the customer: the one it called for, another kind of action, an offer,
    leaving things as they are, going ahead with what was prepared; None when it cannot tell."""
    lower = action.lower()
    named = set(action_families(lower))
    if named:
        return WISHED if named & set(action_families(wish.lower())) else ANOTHER
    return next((kind for patterns, kind in KIND_CUES if mentions(patterns, lower)), None)


def _as_said_back(action: str) -> str:
    """The rep's words for an action as the customer says them ("move you to" -> "move me to")."""
    mine = {"you": "me", "your": "my", "yours": "mine", "yourself": "myself"}
    return re.sub(r"\b(you|your|yours|yourself)\b", lambda match: mine[match.group(1).lower()], action, flags=re.I)


def _wish(known: dict) -> str:
    """What the customer called for, without its greeting ("Hi, I'd like ..." -> "I'd like ...")."""
    request = re.sub(r"^(hi|hello|hey)( there)?[,!.]?\s*", "", str(known.get("request", "")), flags=re.I)
    return request[:1].upper() + request[1:]


def _contact(said: list[str], known: dict) -> str | None:
    """Email or a text message; card or something else: what it has."""
    last = said[-1].lower()
    if "email" in known and re.search(r"\be-?mail\b", last) and re.search(r"\b(text|sms|phone|call)\b", last):
        return "By email, please."
    if "card_number" in known and re.search(r"\bcard\b", last) and re.search(r"\b(miles|points|voucher|cash)\b", last):
        return "By card, please."
    return None


def _passenger(said: list[str], known: dict) -> str | None:
    name = known.get("full_name")
    text = " ".join(said)
    if name and name.lower() in text.lower() and re.search(r"\b(whose|who|passenger|travell?er)\b", said[-1], re.I):
        return BY_NAME["full_name"].say(name)
    return None


def _flight(said: list[str], known: dict) -> str | None:
    """The flight leaving at the customer's time, on its day when the options say days; none of them
    when no option does."""
    wanted = known.get("departure_time")
    options = [option for option in _options(said) if option.departs]
    if not wanted or len(options) < 1 or not (len(options) > 1 or _FLIGHT_WORDS.search(" ".join(said))):
        return None
    minute = _minutes(wanted)
    day = known.get("travel_date")
    fits = [option for option in options if minute in option.departs and _on_day(option.text, day, said)]
    if fits:
        return _named(fits[0], f"the one leaving at {wanted}")
    return f"{NONE_OF_THEM} {BY_NAME['departure_time'].say(wanted)}"


_FLIGHT_WORDS = re.compile(r"\b(flights?|options?|departures?|nonstop|CR\d+)\b", re.I)


def _on_day(text: str, day, said: list[str]) -> bool:
    """Whether an option is on the customer's travel day, as far as the text says (its own days,
    else the days the whole question names)."""
    if not isinstance(day, dt.date):
        return True
    days = _days(text, day) or _days(" ".join(said), day)
    return not days or day in days


def _days(text: str, near: dt.date) -> list[dt.date]:
    """The days a text names, a day without its year taken in the year nearest `near`."""
    return [found.near(near) if isinstance(found, DayOfYear) else found for found in dates_in(text)]


def _wished_flight(said: list[str], known: dict) -> str | None:
    """The flight its request describes: its arrival or departure limit, and the cheapest that meets it."""
    request = str(known.get("request", ""))
    options = [option for option in _options(said) if option.departs or option.arrives]
    if len(options) < 2 or not re.search(r"\b(arriv|leav|depart|cheapest)", request, re.I):
        return None
    meeting = [option for option in options if _meets(option, request)]
    if not meeting:
        return f"{NONE_OF_THEM} {request}"
    cheapest = min(meeting, key=lambda option: _price(option, request))
    return _named(cheapest, "please")


def _meets(option: Option, request: str) -> bool:
    before = re.search(r"\barriv\w* before ([\d:]+ ?[ap]\.?m\.?)", request, re.I)
    after = re.search(r"\b(?:leav|depart)\w* after ([\d:]+ ?[ap]\.?m\.?)", request, re.I)
    if before:
        return bool(option.arrives) and option.arrives[0] < _minutes(before.group(1))
    if after:
        return bool(option.departs) and option.departs[0] > _minutes(after.group(1))
    return True


def _price(option: Option, request: str) -> float:
    """The option's price in the fare family the request names (its column, or its only price)."""
    fare = next((name for name in FARES if re.search(rf"\b{name}\b", request, re.I)), None)
    near = re.search(rf"\b{fare}\b[^$]{{0,12}}\$\s?(\d[\d,]*(?:\.\d\d)?)", option.text, re.I) if fare else None
    if near:
        return float(near.group(1).replace(",", ""))
    return option.prices[-1] if option.prices else float("inf")


def _open_flight(said: list[str], known: dict) -> str | None:
    """A question about a flight that names none to pick from ("Which flight would you like on your
    new date?"): the flight the customer wants, by its departure time (and its day, unless the
    question names one), or as its request describes it. None when options were named (then any
    will do) or the customer wants no flight in particular."""
    text = " ".join(said)
    if not _OPEN_FLIGHT_WORDS.search(said[-1]) or re.search(r"\bor\b", said[-1], re.I) or LABEL.search(text) \
            or _options(said) or len(dates_in(text)) >= 2:
        return None
    wanted, day = known.get("departure_time"), known.get("travel_date")
    if wanted:
        time = BY_NAME["departure_time"].say(wanted)
        named_day = dates_in(said[-1]) or _A_DAY_NAMED.search(said[-1])
        return time if named_day or not isinstance(day, dt.date) else f"{BY_NAME['travel_date'].say(day)} {time}"
    request = _wish(known)
    return request if re.search(r"\b(arriv|leav|depart|cheapest)", request, re.I) else None


# A question about a flight (or its departure), and one that already names the day it is about.
_OPEN_FLIGHT_WORDS = re.compile(r"\b(flights?|departures?|depart\w*|leav\w*|fly|flying)\b", re.I)
_A_DAY_NAMED = re.compile(r"\b(on|for) (the|your|that|this) (new |same |chosen |corrected )?(date|day)\b", re.I)


def _booking(said: list[str], known: dict) -> str | None:
    """Its own booking among several: by its code, or, without one, the booking on its travel day."""
    text = " ".join(said)
    codes = codes_in(text)
    if not codes or (len(codes) < 2 and not re.search(r"\b(reservations?|bookings?|codes?|ids?|trips?)\b", text, re.I)):
        return None
    code = known.get("confirmation_code")
    if code is not None:
        said_code = BY_NAME["confirmation_code"].say(code)
        return said_code if code.upper() in codes else f"{NONE_OF_THEM} {said_code}"
    day = known.get("travel_date")
    mine = [option for option in _options(said) if isinstance(day, dt.date) and day in _days(option.text, day)]
    if mine:
        return f"The one on {day:%B} {day.day}, {mine[0].label}."
    if isinstance(day, dt.date):
        return f"{NONE_OF_THEM} My flight is on {day:%B} {day.day}, {day.year}."
    return "I'm sorry, I don't have my confirmation code."


def _fare(said: list[str], known: dict) -> str | None:
    """The fare family its request names, when the rep offers it."""
    text = " ".join(said).lower()
    wanted = [fare for fare in FARES if re.search(rf"\b{fare}\b", str(known.get("request", "")), re.I)]
    offered = [fare for fare in FARES if re.search(rf"\b{fare.lower()[:3]}", text)]
    if not wanted or not offered:
        return None
    return f"{wanted[0]}, please." if wanted[0] in offered else f"{NONE_OF_THEM} I'd like a {wanted[0]} fare."


def _date(said: list[str], known: dict) -> str | None:
    """Its travel date among the dates offered."""
    wanted = known.get("travel_date")
    if not isinstance(wanted, dt.date):
        return None
    offered = [day.near(wanted) if isinstance(day, DayOfYear) else day for day in dates_in(" ".join(said))]
    if len(offered) < 2:
        return None
    return BY_NAME["travel_date"].say(wanted) if wanted in offered else \
        f"{NONE_OF_THEM} {BY_NAME['travel_date'].say(wanted)}"


def _named(option: Option, tail: str) -> str:
    if LABEL.fullmatch(option.label):
        return f"I'll take {option.label}, {tail}." if tail != "please" else f"{option.label}, please."
    return f"The {option.label} one, please."


def _options(said: list[str]) -> list[Option]:
    """The options the sentences describe: pieces named by a flight number or code (merged when the
    same one is named twice), else pieces cut at "or" and named by their departure time."""
    columns = _columns(said)
    pieces = [piece for sentence in said for piece in _pieces(sentence)]
    named: dict[str, Option] = {}
    for piece in pieces:
        labels = LABEL.findall(piece)
        if labels:
            option = named.setdefault(labels[0].replace(" ", ""), Option(labels[0].replace(" ", "")))
            _describe(option, piece, columns)
    if len(named) >= 2:
        return list(named.values())
    unnamed = []
    for part in (part for piece in pieces for part in _by_departure(piece, columns)):
        option = Option("")
        _describe(option, part, columns)
        if option.departs:
            option.label = _clock(option.departs[0])
            unnamed.append(option)
    return unnamed


def _by_departure(piece: str, columns: list[str]) -> list[str]:
    """A piece naming several departures ("one at 6:40am and another at 8:15pm") cut into one part
    each, at the last parting word before each departure after the first ("and", ",", "while")."""
    cuts, after = [], None  # after: where the last time named ends, from the first departure on
    for match, arrives in _clocks(piece, columns):
        if not arrives and after is not None:
            partings = list(PARTING.finditer(piece, after, match.start()))
            cuts.append(partings[-1].start() if partings else match.start())
        if not arrives or after is not None:
            after = match.end()
    return [piece[a:b] for a, b in zip([0, *cuts], [*cuts, len(piece)])]


def _pieces(sentence: str) -> list[str]:
    """A sentence cut where options part: at "or", ";" and "|", then before each label when a piece
    still names several."""
    pieces = []
    for piece in re.split(r",? \bor\b |;| \| ", sentence):
        if len(LABEL.findall(piece)) > 1 and " and " in piece:
            pieces.extend(_pieces(piece.replace(" and ", " or ")))
            continue
        starts = [match.start() for match in LABEL.finditer(piece)]
        if len(starts) > 1:
            pieces.extend(piece[a:b] for a, b in zip([0, *starts[1:]], [*starts[1:], len(piece)]))
        else:
            pieces.append(piece)
    return pieces


def _columns(said: list[str]) -> list[str]:
    """A table's time columns in order ("departs", "arrives"), read from its header row."""
    for sentence in said:
        words = re.findall(r"\b(depart\w*|arriv\w*|dep|arr)\b", sentence, re.I)
        if words and not CLOCK.search(sentence) and not PRICE.search(sentence):
            return ["arrives" if word.lower().startswith("arr") else "departs" for word in words]
    return []


def _describe(option: Option, piece: str, columns: list[str]) -> None:
    option.text += " " + piece
    option.prices += [float(price.replace(",", "")) for price in PRICE.findall(piece)]
    for match, arrives in _clocks(piece, columns):
        (option.arrives if arrives else option.departs).append(_minutes(match.group(0)))


def _clocks(piece: str, columns: list[str]) -> list[tuple[re.Match, bool]]:
    """The times a piece names, each with whether it is an arrival (said so, or in a table's arrival column)."""
    found = []
    for index, match in enumerate(CLOCK.finditer(piece)):
        said_as = piece[max(0, match.start() - 14):match.start()]
        found.append((match, bool(ARRIVING.search(said_as)) or (not re.search(r"\b(dep|leav)", said_as, re.I) and
                                                                columns[index:index + 1] == ["arrives"])))
    return found


def _minutes(clock: str) -> int:
    match = CLOCK.search(clock)
    hour, minute, half, hour24, minute24 = match.groups()
    if hour24 is not None:
        return int(hour24) * 60 + int(minute24)
    return (int(hour) % 12 + (12 if half.lower() == "p" else 0)) * 60 + int(minute or 0)


def _clock(minutes: int) -> str:
    hour, minute = divmod(minutes, 60)
    return f"{hour % 12 or 12}:{minute:02d}{'pm' if hour >= 12 else 'am'}"
