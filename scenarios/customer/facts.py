"""What a customer knows, fact by fact: how a rep asks for each (the phrases, synonyms included),
how the customer says it, and how a value of it is spotted in a rep's read-back and compared."""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from crm_app.services.dates import read_date

from ..phrasing import spoken_date

_MONTH = r"(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DAY, _YEAR = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?", r"(?P<year>\d{4})"
_TYPED_DATE = re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{4}\b")  # read_date's two formats
_SPOKEN_DATES = (re.compile(rf"\b{_MONTH} {_DAY},? {_YEAR}\b", re.I),  # April 5, 1980
                 re.compile(rf"\b{_DAY} (?:of )?{_MONTH},? {_YEAR}\b", re.I))  # the 5th of April 1980
_CODE = re.compile(r"\b(?=[a-z0-9]*[a-z])(?=[a-z0-9]*[0-9])[a-z0-9]{6}\b", re.I)  # spoken: any case
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))? ?([ap])\.?m\.?\b", re.I)
_DIGITS = re.compile(r"(?:\d[ -]?){12,19}")


def dates_in(text: str) -> list[dt.date]:
    """The dates a line says, typed (as the CRM reads them: read_date) or spoken (April 5, 1980;
    the 5th of April 1980)."""
    found = [read_date(match) for match in _TYPED_DATE.findall(text)]
    for pattern in _SPOKEN_DATES:
        for match in pattern.finditer(text):
            try:
                found.append(dt.datetime.strptime("{month} {day} {year}".format(**match.groupdict()), "%b %d %Y").date())
            except ValueError:  # April 31
                continue
    return [day for day in found if day is not None]


def times_in(text: str) -> list[str]:
    """Clock times as "5:05pm"."""
    return [f"{int(h)}:{m or '00'}{ap.lower()}m" for h, m, ap in _TIME.findall(text)]


@dataclass(frozen=True)
class FactKind:
    name: str
    asked: tuple[str, ...]  # regular expressions over the rep's line, lower case
    say: Callable[[object], str]  # the customer's sentence giving the value
    spot: Callable[[str], list] | None = None  # values of this kind in a rep's line, for read-backs
    shown: Callable[[object], object] = lambda value: value  # the value as spot() returns it

    def is_asked(self, line: str) -> bool:
        return any(re.search(pattern, line) for pattern in self.asked)


def _long_date(day: dt.date) -> str:
    return spoken_date(day.isoformat(), "long")


KINDS: tuple[FactKind, ...] = (
    FactKind("confirmation_code",
             (r"confirmation (code|number)", r"booking (reference|code|number|ref)", r"record locator", r"\bpnr\b",
              r"reservation (code|number)", r"\blocator\b", r"\breference (code|number)\b", r"\bbooking ref\b",
              r"six.character code", r"\bthe code\b", r"\byour code\b"),
             lambda v: f"My confirmation code is {v}.", lambda line: [c.upper() for c in _CODE.findall(line)],
             lambda v: v.upper()),
    FactKind("date_of_birth",
             (r"date of birth", r"\bdob\b", r"\bbirth ?day\b", r"\bborn\b", r"\bbirth date\b", r"\bbirthdate\b"),
             lambda v: f"My date of birth is {_long_date(v)}.", dates_in),
    FactKind("email",
             (r"(?<!confirmation )\be-?mail\b", r"\bmail address\b"),
             lambda v: f"My email is {v}.", lambda line: [e.lower() for e in _EMAIL.findall(line)],
             lambda v: v.lower()),
    FactKind("first_name", (r"\bfirst name\b", r"\bgiven name\b", r"\bforename\b"), lambda v: f"My first name is {v}."),
    FactKind("last_name", (r"\blast name\b", r"\bsurname\b", r"\bfamily name\b"), lambda v: f"My last name is {v}."),
    FactKind("full_name",
             (r"\bfull name\b", r"\byour name\b", r"\bname on the (booking|reservation|ticket)\b",
              r"\bpassenger'?s? name\b", r"\bwho (is|'s) (travell?ing|flying)\b", r"\bwho am i speaking\b",
              r"\bwhom? am i speaking\b", r"\bspell (your|the) name\b", r"\bfirst and last names?\b",
              r"\bname on (file|the account)\b", r"\bnames? of the passenger\b"),
             lambda v: f"It's {v}."),
    FactKind("title", (r"\btitle\b", r"\bmr\.?,? (or |/)?(mrs|ms)\b", r"\bhow should i address\b"),
             lambda v: f"My title is {v}."),
    FactKind("gender", (r"\bgender\b", r"\bsex\b"), lambda v: f"My gender is {v}."),
    FactKind("travel_date",
             (r"\b(which|what) (new )?(date|day)\b", r"\bnew date\b", r"\bwhen would you like\b",
              r"\bwhen do you (want|wish|need)\b", r"\bdate .*\b(fly|travel|leave|depart)", r"\bwhat day\b",
              r"\bwhen .*\b(fly|travel|leave|depart)\b", r"\b(fly|travel|leave|depart)(ing)? on\b"),
             lambda v: f"I'd like to travel on {_long_date(v)}.", dates_in),
    FactKind("departure_time",
             (r"\b(what|which) time\b", r"\btime of day\b", r"\bmorning or (afternoon|evening)\b",
              r"\bwhat time\b", r"\b(preferred|preference for a) time\b", r"\bhow early\b", r"\bhow late\b"),
             lambda v: f"I'd like to leave at {v}.", times_in),
    FactKind("card_number",
             (r"\bcard number\b", r"\bcredit card\b", r"\bdebit card\b", r"\bpayment (card|details|method)\b",
              r"\bcard details\b", r"\blong number on (the|your) card\b", r"\bpay with\b"),
             lambda v: f"My card number is {v}.",
             lambda line: [re.sub(r"\D", "", d) for d in _DIGITS.findall(line)], lambda v: re.sub(r"\D", "", v)),
    FactKind("card_expiry",
             (r"\bexpir", r"\bvalid (until|thru|through)\b", r"\bexp\.? date\b"),
             lambda v: f"It expires {v}.", lambda line: re.findall(r"\b\d{2}/\d{2}\b(?!/)", line)),
    FactKind("security_code",
             (r"\bsecurity code\b", r"\bcvv\b", r"\bcvc\b", r"\bcard verification\b", r"\bthree.digit code\b",
              r"\bcode on the back\b"),
             lambda v: f"The security code is {v}."),
    FactKind("name_on_card",
             (r"\bname on (the|your) card\b", r"\bcardholder'?s? name\b", r"\bname as it appears on the card\b"),
             lambda v: f"The name on the card is {v}."),
    FactKind("choice",
             (r"\bwhich (one|option|flight)\b", r"\bwhich of (the|these|them|those)\b", r"\bprefer one of\b",
              r"\bwould you rather\b", r"\bfirst (one )?or (the )?second\b", r"\boption [ab12] or\b"),
             lambda v: f"I'll take {v}."),
    FactKind("consent",
             (r"\bgo ahead\b", r"\bproceed\b", r"\bshall i\b", r"\bwould you like me to\b",
              r"\bdo you (want|agree|accept)\b", r"\bis that (ok|okay|alright|all right|fine)( with you)?\?",
              r"\bconfirm the (change|cancellation)\b"),
             lambda v: f"{v}"),
    FactKind("request",
             (r"\bhow (can|may) i (help|assist)\b", r"\bwhat can i do for you\b", r"\bwhat do you need\b",
              r"\breason for (your|the) call\b", r"\bwhat (is|'s) the (issue|problem)\b",
              r"\bwhy are you calling\b", r"\bwhat would you like (me )?to do\b"),
             lambda v: f"{v}"),
)
BY_NAME = {kind.name: kind for kind in KINDS}
DATE_KINDS = ("date_of_birth", "travel_date")  # a bare date in a read-back may be either
DISTINCT = ("confirmation_code", "email", "card_number", "card_expiry", "departure_time")  # values name their kind
