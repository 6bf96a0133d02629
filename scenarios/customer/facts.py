"""What a customer knows, fact by fact: how the customer says each, and how a value of it is
spotted in a rep's read-back and compared. How a rep asks for each is in vocabulary.py."""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from crm_app.services.dates import read_date

from ..phrasing import spoken_date
from .patterns import compiled
from .vocabulary import FACT_WORDS

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_MONTH_WORD = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DAY, _YEAR = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?", r"(?P<year>\d{4})"
_TYPED_DATE = re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})\b(?!/)")  # read_date's two formats, 9/30/92
_SPOKEN_DATES = (re.compile(rf"\b{_MONTH} {_DAY}(?:,? {_YEAR})?\b(?!:)", re.I),  # April 5, 1980; July 14th
                 re.compile(rf"\b{_DAY} (?:of )?{_MONTH}(?:,? {_YEAR})?\b", re.I))  # the 5th of April 1980
_CODE = re.compile(r"(?<![\w@.-])(?:[a-z0-9]{6}|(?:[a-z0-9][ -]){5}[a-z0-9])(?![\w@-])", re.I)
_FLIGHT_BEFORE = re.compile(r"\b(flights?|flight number|flight no\.?|number)\s*#?\s*$", re.I)
_CODE_WORDS = re.compile(r"\b(codes?|reservations?|bookings?|confirmation|locator|pnr|reference|ids?)\b", re.I)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))? ?([ap])\.?m\.?(?!\w)|\b([01]?\d|2[0-3]):([0-5]\d)\b(?! ?[ap]\.?m)", re.I)
_ARRIVING = re.compile(r"\b(arriv\w*|lands?|landing|gets? in|reach\w*)\b[^,;.]{0,18}$", re.I)
_DIGITS = re.compile(r"(?:\d[ -]?){12,19}")


_NATO = {"alpha": "A", "alfa": "A", "bravo": "B", "charlie": "C", "delta": "D", "echo": "E", "foxtrot": "F", "golf": "G",
         "hotel": "H", "india": "I", "juliet": "J", "juliett": "J", "kilo": "K", "lima": "L", "mike": "M",
         "november": "N", "oscar": "O", "papa": "P", "quebec": "Q", "romeo": "R", "sierra": "S", "tango": "T",
         "uniform": "U", "victor": "V", "whiskey": "W", "whisky": "W", "x-ray": "X", "xray": "X", "yankee": "Y",
         "zulu": "Z", "zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
         "seven": "7", "eight": "8", "nine": "9", "niner": "9"}
_HYPHENATED = re.compile(r"\b(?:[A-Za-z0-9][-.]){2,}[A-Za-z0-9]\b(?![\w@])")
_SPELLED = re.compile(r"\b(?:[A-Za-z0-9](?:[ ,]|\s+as in \w+[ ,]*)+){3,}[A-Za-z0-9]\b(?![\w@])")
_NATO_RUN = re.compile(r"\b(?:(?:%s)\b[\s,.-]*){4,}" % "|".join(sorted(map(re.escape, _NATO), key=len, reverse=True)), re.I)


def unspelled(text: str) -> str:
    """The text with what a rep spelled out joined up: "Q-X-7-R-2-A", "L O V E L A C E" and "Quebec,
    X-ray, seven, Romeo" become QX7R2A, LOVELACE and QX7R."""
    text = _NATO_RUN.sub(lambda m: "".join(_NATO[w.lower()] for w in re.findall(r"x-ray|[\w]+", m.group(0), re.I)
                                           if w.lower() in _NATO) + " ", text)
    text = _HYPHENATED.sub(lambda m: re.sub(r"[-.]", "", m.group(0)).upper(), text)
    return _SPELLED.sub(lambda m: re.sub(r"\s+as in \w+|[ ,]", "", m.group(0)).upper(), text)


@dataclass(frozen=True)
class DayOfYear:
    """A date read back without its year ("July 14th"): the customer hears the nearest date it knows."""
    month: int
    day: int

    def near(self, known: dt.date) -> dt.date | None:
        """This day in the year that puts it nearest to `known`."""
        days = []
        for year in (known.year - 1, known.year, known.year + 1):
            try:
                days.append(dt.date(year, self.month, self.day))
            except ValueError:  # February 29
                continue
        return min(days, key=lambda day: abs((day - known).days), default=None)


def dates_in(text: str) -> list[dt.date | DayOfYear]:
    """The dates a line says, typed (as the CRM reads them: read_date) or spoken (April 5, 1980;
    the 5th of April 1980), the spoken ones also without a year."""
    found = [read_date(match) or _day_first(match) for match in _TYPED_DATE.findall(text)]
    for pattern in _SPOKEN_DATES:
        for match in pattern.finditer(text):
            found.append(_spoken(match.group("month"), match.group("day"), match.group("year")))
    return [day for day in found if day is not None]


def _day_first(text: str) -> dt.date | None:
    """30/09/1992 (a typed date that can only be day first) or 9/30/92 (a year in two digits)."""
    for fmt in ("%d/%m/%Y", "%m/%d/%y", "%d/%m/%y"):
        try:
            return dt.datetime.strptime(text, fmt).date().replace(year=_full_year(text, fmt))
        except ValueError:
            continue
    return None


def _full_year(text: str, fmt: str) -> int:
    year = int(text.rsplit("/", 1)[1])
    return year if fmt.endswith("Y") else (2000 + year if year <= 30 else 1900 + year)


def _spoken(month: str, day: str, year: str | None) -> dt.date | DayOfYear | None:
    number, day_number = _MONTHS.index(month.lower()[:3]) + 1, int(day)
    try:
        return dt.date(int(year), number, day_number) if year else \
            (DayOfYear(number, day_number) if dt.date(2000, number, day_number) else None)
    except ValueError:  # April 31
        return None


def times_in(text: str) -> list[str]:
    """Departure times as "5:05pm" (12- or 24-hour clock); a time said as an arrival is left out.
    "5:05" with no half of the day is both 5:05am and 5:05pm, unless the words around it say which."""
    found = []
    for match in _TIME.finditer(text):
        if _ARRIVING.search(text[:match.start()]):
            continue
        hour, minute, half, hour24, minute24 = match.groups()
        if hour24 is None:
            found.append(f"{int(hour)}:{minute or '00'}{half.lower()}m")
        elif int(hour24) > 12 or int(hour24) == 0:
            found.append(f"{int(hour24) % 12 or 12}:{minute24}{'p' if int(hour24) >= 12 else 'a'}m")
        else:
            found.extend(f"{int(hour24)}:{minute24}{half}m" for half in _halves(text[max(0, match.start() - 25):match.end() + 25]))
    return found


def _halves(around: str) -> str:
    if re.search(r"\b(evening|afternoon|night|tonight)\b", around, re.I):
        return "p"
    return "a" if re.search(r"\bmorning\b", around, re.I) else "ap"


def codes_in(text: str) -> list[str]:
    """Six-character codes (spoken letter by letter or not, any case when they hold a digit),
    flight numbers left out."""
    found = []
    for match in _CODE.finditer(text):
        code = re.sub(r"[ -]", "", match.group(0))
        letters_only = code.isalpha()
        shouted = text.upper() == text  # a line in capitals: its words are not codes
        named = _CODE_WORDS.search(text)  # a code of letters alone only where the text speaks of codes
        if (letters_only and (not code.isupper() or shouted or not named)) or code.isdigit() \
                or _FLIGHT_BEFORE.search(text[:match.start()]):
            continue
        if re.fullmatch(r"CR\d{4}", code, re.I):  # the CRM's own flight numbers
            continue
        found.append(code.upper())
    return found


def names_in(kind_words: tuple[str, ...]) -> Callable[[str], list[str]]:
    """A spotter of the names said after a kind's words ("your last name is Lovelace"), a title
    before them left out."""
    def spot(line: str) -> list[str]:
        found = []
        for pattern in kind_words:
            for match in compiled(pattern + r"(?:\s+(?:is|was|as|reads|spelled|shows|says|under|in))*\s*[:,—–-]?\s*"
                                               r"(?:(?:mr|mrs|ms|miss|dr|mx)\.?\s+)?(?P<name>[^\W\d_][\w'’-]*(?: (?-i:[A-Z])[\w'’-]+){0,2})",
                                  re.I).finditer(line):
                name = match.group("name")
                if name[0].isupper() and name.split()[0].casefold() not in _NOT_NAMES:
                    found.append(name.casefold())
        return found
    return spot


_NOT_NAMES = {"name", "names", "date", "email", "details", "and", "the", "is", "on", "of", "for", "please", "correct",
              "passenger", "passengers", "title", "first", "last", "full", "card", "number", "change", "booking"}


def titles_in(line: str) -> list[str]:
    """Titles said before a name ("Ms Omar Haddad") or after the word title ("Title: Ms.")."""
    before_names = re.findall(r"\b(mr|mrs|ms|miss|dr|mx)\b\.?\s+(?=(?-i:[A-Z]))", line, re.I)
    named = re.findall(r"\btitle\b\s*(?:is|:)?\s*(mr|mrs|ms|miss|dr|mx)\b", line, re.I)
    return [title.capitalize() for title in before_names + named]


def expiries_in(line: str) -> list[str]:
    """Card expiry dates as MM/YY: 04/29, 04/2029, April 2029."""
    found = [f"{m}/{y[-2:]}" for m, y in re.findall(r"\b(\d{2})/(\d{2}|\d{4})\b(?!/)", line)]
    for month, year in re.findall(rf"\b{_MONTH_WORD} (\d{{4}})\b", line, re.I):
        found.append(f"{_MONTHS.index(month.lower()[:3]) + 1:02d}/{year[-2:]}")
    return found


@dataclass(frozen=True)
class FactKind:
    name: str
    say: Callable[[object], str]  # the customer's sentence giving the value
    spot: Callable[[str], list] | None = None  # values of this kind in a rep's line, for read-backs
    shown: Callable[[object], object] = lambda value: value  # the value as spot() returns it

    @property
    def asked(self) -> tuple[str, ...]:
        """How a rep asks for it: regular expressions over a sentence in lower case."""
        return FACT_WORDS.get(self.name, ())

    def is_asked(self, line: str) -> bool:
        return any(compiled(pattern).search(line) for pattern in self.asked)


def _long_date(day: dt.date) -> str:
    return spoken_date(day.isoformat(), "long")


def _lower(value) -> str:
    return str(value).casefold()


def _budget(value: dict) -> str:
    """A caller's budget for its request (TASK_UPGRADE_TO_CHANGE), `limit` None where it has none."""
    if value.get("limit") is None:
        return "I don't have a set budget."
    return f"I can't spend more than ${value['limit'].removesuffix('.00')} on it."


KINDS: tuple[FactKind, ...] = (
    FactKind("confirmation_code", lambda v: f"My confirmation code is {v}.", codes_in, lambda v: v.upper()),
    FactKind("date_of_birth", lambda v: f"My date of birth is {_long_date(v)}.", dates_in),
    FactKind("email", lambda v: f"My email is {v}.", lambda line: [e.lower() for e in _EMAIL.findall(line)],
             lambda v: v.lower()),
    FactKind("first_name", lambda v: f"My first name is {v}.",
             names_in((r"\bfirst name", r"\bgiven name", r"\bforename")), _lower),
    FactKind("last_name", lambda v: f"My last name is {v}.",
             names_in((r"\blast name", r"\bsurname", r"\bfamily name")), _lower),
    FactKind("full_name", lambda v: f"It's {v}.",
             names_in((r"(?<!first )(?<!last )(?<!family )(?<!given )\bname(?! on the card)(?: on the (?:booking|reservation))?",
                       r"\bpassenger", r"\bbooking'?s? under", r"\breservation is under")), _lower),
    FactKind("title", lambda v: f"My title is {v}.", titles_in),
    FactKind("gender", lambda v: f"My gender is {v}.",
             lambda line: [g.casefold() for g in re.findall(r"\b(male|female|non-binary|other)\b", line, re.I)], _lower),
    FactKind("travel_date", lambda v: f"I'd like to travel on {_long_date(v)}.", dates_in),
    FactKind("departure_time", lambda v: f"I'd like to leave at {v}.", times_in),
    FactKind("card_number", lambda v: f"My card number is {v}.",
             lambda line: [re.sub(r"\D", "", d) for d in _DIGITS.findall(line)], lambda v: re.sub(r"\D", "", v)),
    FactKind("card_expiry", lambda v: f"It expires {v}.", expiries_in),
    FactKind("security_code", lambda v: f"The security code is {v}.", lambda line: re.findall(r"\b\d{3,4}\b", line)),
    FactKind("name_on_card", lambda v: f"The name on the card is {v}.",
             names_in((r"\bname on (?:the |your )?card", r"\bcard ?holder(?:'s)?(?: name)?", r"\bname on card")), _lower),
    FactKind("consent", lambda v: f"{v}"),  # agreement, given as simulator.CONSENT (how the call's scoring finds it)
    FactKind("request", lambda v: f"{v}"),
    FactKind("trip", lambda v: f"{v}"),
    FactKind("claim", lambda v: f"{v}"),
    FactKind("budget", _budget),
)
BY_NAME = {kind.name: kind for kind in KINDS}
BOOKED_ON = "booked_on"  # not a kind of fact asked for: the day the caller's own booking flies (variants/unprepared.py)
UNSAID_WHEN_MISSING = ("claim", "budget")  # asked for without the customer holding one, it goes unanswered
NAME_KINDS = ("first_name", "last_name", "full_name", "name_on_card")  # their spotters look only after their own words
DATE_KINDS = ("date_of_birth", "travel_date")  # a bare date in a read-back may be either
DISTINCT = ("confirmation_code", "email", "card_number", "departure_time", "title")  # values that name their kind
