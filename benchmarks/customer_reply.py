"""How long the rule-based customer takes to reply on a long call, with the caller's history read
once per call (issue 53) and, for comparison, read again for every reply and every part as before;
and with its patterns compiled once each (scenarios/customer/patterns.py) against looked up in the
re module's cache, which holds fewer patterns (512) than the vocabulary has and so compiled them again.

    .venv/bin/python benchmarks/customer_reply.py [--repeats 5]

A 20-line call of the rep's (each line its own, asking a fact in turn) is answered line by line by
the impatient caller (customer variant 5, who reads the whole call for every reply) and the vague one
(variant 2, who reads it for every fact it says loosely). Printed: the median time of a reply and
of the whole call, before and after, and their ratio. No model, no server: `simulator.reply` alone.
"""
from __future__ import annotations

import argparse
import datetime as dt
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scenarios.customer import patterns  # noqa: E402
from scenarios.customer.reading import read  # noqa: E402
from scenarios.customer.simulator import AGENT, CUSTOMER, reply  # noqa: E402
from scenarios.customer.variants import customer_variant, history, impatient  # noqa: E402

FACTS = {"confirmation_code": "QJ7T2M", "date_of_birth": dt.date(1984, 6, 9), "email": "noor.haddad@example.com",
         "first_name": "Noor", "last_name": "Haddad", "travel_date": dt.date(2026, 9, 3), "departure_time": "7:20am",
         "request": "Hello, I need to move my flight to another day."}
ASKS = ("your booking reference", "the new day you'd like to fly", "roughly what time you'd like to leave",
        "the passenger's email address")
LINES = [f"Thank you for waiting. Before step {number}, could you tell me {ASKS[number % len(ASKS)]}?"
         for number in range(20)]


def read_every_time(turn) -> list[list[str]]:
    """The history as it was read before issue 53: every rep line again, for every call of it."""
    return [[name for name in read(line["text"], turn.known).asked if name not in history.NOT_COUNTED]
            for line in turn.transcript if line["role"] == AGENT]


def one_call(variant) -> list[float]:
    """The seconds each reply of the 20-line call took."""
    history._READ.clear()
    transcript, seconds = [{"role": CUSTOMER, "text": FACTS["request"]}], []
    for line in LINES:
        transcript.append({"role": AGENT, "text": line})
        started = time.perf_counter()
        said = reply(FACTS, transcript, variant)
        seconds.append(time.perf_counter() - started)
        transcript.append({"role": CUSTOMER, "text": said})
    return seconds


def measured(variant, repeats: int) -> tuple[float, float]:
    """(the median reply, the median call) in milliseconds over `repeats` calls."""
    calls = [one_call(variant) for _ in range(repeats)]
    return (1000 * statistics.median(s for call in calls for s in call),
            1000 * statistics.median(sum(call) for call in calls))


def pattern_users() -> list:
    """The customer's modules that took `compiled` from patterns.py (all imported by now)."""
    return [module for name, module in sys.modules.items()
            if module is not patterns and name.startswith("scenarios.customer.")
            and getattr(module, "compiled", None) is patterns.compiled]


def through_re_cache(pattern: str, flags: int = 0) -> re.Pattern:
    """A pattern as re.search(pattern, ...) found it before: in the re module's own cache."""
    return re.compile(pattern, flags)


def compare_patterns(repeats: int) -> None:
    print(f"\n{'caller':<12} {'patterns':<26} {'reply ms (median)':>18} {'20-line call ms':>16}")
    for number in (0, 5):
        variant = customer_variant(number)
        users = pattern_users()
        for module in users:
            module.compiled = through_re_cache
        try:
            before = measured(variant, repeats)
        finally:
            for module in users:
                module.compiled = patterns.compiled
        after = measured(variant, repeats)
        for way, (per_reply, per_call) in (("in re's cache (before)", before), ("compiled once (after)", after)):
            print(f"{variant.name:<12} {way:<26} {per_reply:>18.2f} {per_call:>16.1f}")
        print(f"{variant.name:<12} {'ratio before / after':<26} {before[0] / after[0]:>17.1f}x "
              f"{before[1] / after[1]:>15.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="calls measured per variant and way")
    args = parser.parse_args()
    print(f"{'caller':<12} {'way':<26} {'reply ms (median)':>18} {'20-line call ms':>16}")
    for number in (5, 2):
        variant = customer_variant(number)
        cached = history.asked_lines
        history.asked_lines = impatient.asked_lines = read_every_time
        try:
            before = measured(variant, args.repeats)
        finally:
            history.asked_lines = impatient.asked_lines = cached
        after = measured(variant, args.repeats)
        for way, (per_reply, per_call) in (("before (read every time)", before), ("after (once per call)", after)):
            print(f"{variant.name:<12} {way:<26} {per_reply:>18.2f} {per_call:>16.1f}")
        print(f"{variant.name:<12} {'ratio before / after':<26} {before[0] / after[0]:>17.1f}x "
              f"{before[1] / after[1]:>15.1f}x")
    compare_patterns(args.repeats)


if __name__ == "__main__":
    main()
