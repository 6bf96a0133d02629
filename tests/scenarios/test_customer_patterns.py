"""The customer's patterns are compiled once each (scenarios/customer/patterns.py), and what is kept
for that is fixed by the code: reading any number of new rep lines adds nothing to it, and the
typo lookups a rep's words cause are kept in a bounded cache."""
import datetime as dt

from scenarios.customer.patterns import compiled
from scenarios.customer.simulator import AGENT, CUSTOMER, reply
from scenarios.customer.typos import _nearest, spelled_right

FACTS = {"confirmation_code": "QJ7T2M", "date_of_birth": dt.date(1984, 6, 9), "last_name": "Haddad",
         "request": "Hello, I need to move my flight to another day."}


def call_with(line: str) -> str:
    return reply(FACTS, [{"role": CUSTOMER, "text": FACTS["request"]}, {"role": AGENT, "text": line}])


def rep_lines(count: int, start: int = 0) -> list[str]:
    return [f"Thanks, Zorblat{n}. Could you give me your booking reference and date of birth, quixotic{n}?"
            for n in range(start, start + count)]


def test_new_rep_lines_add_no_compiled_pattern_and_get_the_same_replies():
    first = [call_with(line) for line in rep_lines(3)]  # every pattern such lines reach, compiled
    kept = compiled.cache_info().currsize
    later = [call_with(line) for line in rep_lines(40, start=3)]
    assert compiled.cache_info().currsize == kept > 100
    assert set(first) == set(later) and "QJ7T2M" in first[0] and "June 9, 1984" in first[0]


def test_typos_are_mended_through_a_bounded_cache():
    assert spelled_right("your confirmaton numbr") == "your confirmation number"
    assert spelled_right("your confirmaton numbr") == "your confirmation number"  # from the cache
    assert _nearest.cache_info().hits >= 2 and _nearest.cache_info().maxsize == 4096
