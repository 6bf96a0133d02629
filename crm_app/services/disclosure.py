"""Whether a line tells a value, however it is written (issue 50): what a rep may not tell a caller
(another passenger's email or date of birth, a booking's code, card digits) is found in the rep's
lines spaced out, spelled letter by letter, in the NATO alphabet, with digits as words, and dates in
any common format.

A code, an email or digits is looked for as a run of whole tokens of the line that spells it: each
token stands for its own letters and digits, or for the letter or digit it names ("Alpha", "seven"),
or for the sign it names ("at", "dot"); hyphens between tokens are ignored, and an amount ($4,242.10) is one number. So "5AI08H", "5 A I 0 8
H", "5-A-I-0-8-H" and "five alpha india zero eight hotel" all tell 5AI08H, while a word that merely
holds the letters ("5AI08HX") does not. A date is told when the line names that day, month and year
in any order and spelling ("August 6, 1953", "6 Aug 1953", "06/08/1953", "1953-08-06", "the 6th of
August 1953").
"""
from __future__ import annotations

import datetime as dt
import re

CODE, EMAIL, DATE, DIGITS = "code", "email", "date", "digits"  # what a value is

NATO = {"alpha": "a", "alfa": "a", "bravo": "b", "charlie": "c", "delta": "d", "echo": "e", "foxtrot": "f",
        "golf": "g", "hotel": "h", "india": "i", "juliet": "j", "juliett": "j", "kilo": "k", "lima": "l", "mike": "m",
        "november": "n", "oscar": "o", "papa": "p", "quebec": "q", "romeo": "r", "sierra": "s", "tango": "t",
        "uniform": "u", "victor": "v", "whiskey": "w", "whisky": "w", "xray": "x", "yankee": "y", "zulu": "z"}
DIGIT_WORDS = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
               "seven": "7", "eight": "8", "nine": "9", "niner": "9"}
SIGNS = {"at": "@", "dot": ".", "period": ".", "point": ".", "underscore": "_", "dash": "-", "hyphen": "-",
         "plus": "+"}
_TOKEN = re.compile(r"\d+(?:\.\d+)+|x-ray|[a-z0-9]+|[@._+-]")  # an amount (142.42) is one token
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_IGNORED = "-"  # between tokens, unless the value holds it

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
             "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?|(" + "|".join(sorted(_ORDINALS, key=len, reverse=True)) + r")"
_YEAR = r"(\d{4})"
_NAMED_DATES = (  # (pattern, which groups hold month, day (digits, word), year)
    (re.compile(_MONTH + r"\s+(?:the\s+)?(?:" + _DAY + r"),?\s+(?:of\s+)?" + _YEAR), (1, 2, 3, 4)),
    (re.compile(r"(?:the\s+)?(?:" + _DAY + r")\s+(?:of\s+)?" + _MONTH + r",?\s+" + _YEAR), (3, 1, 2, 4)),
)
_ISO = re.compile(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
_NUMERIC = re.compile(r"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?!\d)")


def tells(value: str, kind: str, line: str) -> bool:
    """Whether `line` tells `value`, a value of `kind` (CODE, EMAIL, DATE as ISO, DIGITS)."""
    if kind == DATE:
        return dt.date.fromisoformat(value) in dates_in(line)
    plain = _THOUSANDS.sub("", line.lower()).replace("x ray", "x-ray")
    return _spelled(value.lower(), _TOKEN.findall(plain))


def _readings(token: str) -> set[str]:
    """What a token of a line may stand for: its own characters, or the letter, digit or sign it names."""
    found = {token}
    for table in (NATO, DIGIT_WORDS, SIGNS):
        if token.replace("-", "") in table:
            found.add(table[token.replace("-", "")])
    return found


def _spelled(value: str, tokens: list[str]) -> bool:
    """Whether a run of whole tokens spells `value` (ignored separators skipped inside the run)."""
    for start in range(len(tokens)):
        reached = {0}  # how much of the value the run from `start` spells, in each reading
        for token in tokens[start:]:
            if token in _IGNORED and token not in value and reached != {0}:
                continue
            reached = {at + len(reading) for at in reached for reading in _readings(token)
                       if value.startswith(reading, at)}
            if len(value) in reached:
                return True
            if not reached:
                break
    return False


def dates_in(line: str) -> set[dt.date]:
    """Every date the line names with its day, month and year, in any common format; a numeric date
    whose order is ambiguous (03/04/2027) stands for both readings, a two-digit year for 19xx and 20xx."""
    lower, found = line.lower(), set()
    for pattern, (month, day, day_word, year) in _NAMED_DATES:
        for match in pattern.finditer(lower):
            number = int(match[day]) if match[day] else _ORDINALS.index(match[day_word]) + 1
            found |= _valid(int(match[year]), _month_number(match[month]), number)
    for match in _ISO.finditer(lower):
        found |= _valid(int(match[1]), int(match[2]), int(match[3]))
    for match in _NUMERIC.finditer(lower):
        first, second, year = int(match[1]), int(match[2]), match[3]
        for full in ([int(year)] if len(year) == 4 else [1900 + int(year), 2000 + int(year)]):
            found |= _valid(full, first, second) | _valid(full, second, first)
    return found


def _month_number(name: str) -> int:
    return next(number for number, month in enumerate(MONTHS, 1) if month.startswith(name.rstrip(".")[:3]))


def _valid(year: int, month: int, day: int) -> set[dt.date]:
    try:
        return {dt.date(year, month, day)}
    except ValueError:
        return set()
