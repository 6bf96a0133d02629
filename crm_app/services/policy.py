"""The airline's policy for changes, cancellations and name corrections: the rules as data, the
text a rep reads (`policy_text`, made from the same numbers, so the two cannot drift apart), and
what a change or a cancellation of a booking would cost or give back.

The CRM computes these terms and shows them; it does not refuse what the policy forbids: a rep can
break the policy, and the `hard` suite grades whether they did (issue 24).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .fares import FARES
from .pricing import money

STANDARD_CHANGE_FEE_CENTS = 7500
FULL_REFUND_WINDOW = dt.timedelta(hours=24)  # after the booking was made: any fare is refunded in full
FROZEN_BEFORE_DEPARTURE = dt.timedelta(hours=24)  # no change and no cancellation this close to departure
MAX_NAME_CORRECTION = 2  # characters changed, at most, in a passenger's name
DISRUPTING_DELAY = dt.timedelta(hours=3)  # a delay this long frees a booking as a cancellation does
REBOOKING_WINDOW = dt.timedelta(days=7)  # after the disrupted flight's scheduled departure: free changes

ALLOWED, REFUSED = "allowed", "refused"
# What only a supervisor may grant (the hard suite's TASK_ESCALATION): a rep transfers the call.
GIVE_TO_ANOTHER = "give a booking to another person (replace the passenger by someone else)"
REFUND_BEYOND_RULES = "refund what these rules do not refund"
SUPERVISOR_ONLY = (GIVE_TO_ANOTHER, REFUND_BEYOND_RULES)
REFUND, CREDIT = "refund", "credit"
CLOSE_TO_DEPARTURE, JUST_BOOKED = "close to departure", "just booked"  # the time rules


@dataclass(frozen=True)
class FareRules:
    changeable: bool
    change_fee_cents: int  # on top of the fare difference
    cancellation: str  # REFUND, CREDIT or REFUSED
    change_text: str  # as the policy's table says it
    cancellation_text: str


FARE_RULES = {
    "Basic": FareRules(False, 0, REFUSED, "not allowed", "not allowed, no refund"),
    "Standard": FareRules(True, STANDARD_CHANGE_FEE_CENTS, CREDIT,
                          f"${money(STANDARD_CHANGE_FEE_CENTS)} fee plus any fare difference",
                          "a travel credit for the amount paid"),
    "Flex": FareRules(True, 0, REFUND, "the fare difference only", "refunded"),
}


@dataclass(frozen=True)
class Disruption:
    """The airline cancelled (`delay_minutes` 0) or delayed a booking's flight scheduled to leave at
    `scheduled`."""
    cancelled: bool
    delay_minutes: int
    scheduled: dt.datetime

    @property
    def frees(self) -> bool:
        """Whether the passenger may move or cancel at no cost: cancelled, or delayed long enough."""
        return self.cancelled or dt.timedelta(minutes=self.delay_minutes) >= DISRUPTING_DELAY

    def covers(self, departs_at: dt.datetime) -> bool:
        """Whether a flight leaving at `departs_at` is one the passenger may move to for free."""
        return self.scheduled <= departs_at <= self.scheduled + REBOOKING_WINDOW

    @property
    def said(self) -> str:
        if self.cancelled:
            return "the airline cancelled the flight"
        return f"the airline delayed the flight {delay_text(self.delay_minutes)}"


def delay_text(minutes: int) -> str:
    """A delay as the CRM says it: "3 h 40 min", "4 h", "50 min"."""
    hours, rest = divmod(minutes, 60)
    return " ".join([*([f"{hours} h"] if hours else []), *([f"{rest} min"] if rest or not hours else [])])


@dataclass(frozen=True)
class Waiver:
    """A weather waiver bulletin of the scenario that covers a booking's flight (kb_terms.covering_waiver):
    the booking changes free, whatever the fare and the time (the article weather-waiver-general)."""
    bulletin: str  # its id

    @property
    def said(self) -> str:
        return f"the weather waiver {self.bulletin} covers the flight"


def free_rebooking(disruption: Disruption | None, new_departs_at: dt.datetime | None) -> bool:
    """Whether moving a disrupted booking to a flight leaving at `new_departs_at` (None: some flight
    within the rebooking window) is free (no fee, no fare difference), whatever the fare and however
    close to departure."""
    return (disruption is not None and disruption.frees
            and (new_departs_at is None or disruption.covers(new_departs_at)))


@dataclass(frozen=True)
class Terms:
    """What the policy says of one change or cancellation: its `outcome` (allowed or refused for a
    change; refund, credit or refused for a cancellation), the amount in cents (what the customer
    pays for a change, what they get back for a cancellation) and the rule that decided it."""
    outcome: str
    amount_cents: int
    rule: str

    def answer(self) -> dict:
        return {"outcome": self.outcome, "amount": money(self.amount_cents), "rule": self.rule}


def change_terms(fare: str, booked_at: dt.datetime, departs_at: dt.datetime, now: dt.datetime,
                 fare_difference_cents: int, disruption: Disruption | None = None,
                 new_departs_at: dt.datetime | None = None, waiver: Waiver | None = None) -> Terms:
    """Changing the flights of a booking of this fare, booked at `booked_at`, whose first flight
    departs at `departs_at`; a lower new fare gives nothing back (the difference counts from 0).
    A booking whose flight the airline `disruption` frees moves for free to a flight leaving at
    `new_departs_at` within the rebooking window (no `new_departs_at`: the terms of such a move);
    one whose flight a `waiver` covers moves for free."""
    rules, difference = _rules(fare), max(fare_difference_cents, 0)
    if free_rebooking(disruption, new_departs_at):
        return Terms(ALLOWED, 0, f"{disruption.said}: a free change to a flight of the same route within "
                                 f"{REBOOKING_WINDOW.days} days")
    if waiver is not None:
        return Terms(ALLOWED, 0, f"{waiver.said}: no change fee and no fare difference")
    window = _time_window(booked_at, departs_at, now)
    if window == CLOSE_TO_DEPARTURE:
        return Terms(REFUSED, 0, "no change within 24 hours of departure")
    if window == JUST_BOOKED:
        return Terms(ALLOWED, difference, "booked in the last 24 hours: no change fee")
    if not rules.changeable:
        return Terms(REFUSED, 0, f"{fare} fares cannot be changed")
    return Terms(ALLOWED, rules.change_fee_cents + difference, f"{fare}: {rules.change_text}")


def upgrade_terms(fare: str, new_fare: str, departs_at: dt.datetime, now: dt.datetime, difference_cents: int) -> Terms:
    """Raising a booking's fare family to `new_fare` (the CRM takes only a higher one), paying
    `difference_cents`: allowed up to 24 hours before departure."""
    if departs_at - now < FROZEN_BEFORE_DEPARTURE:
        return Terms(REFUSED, 0, f"no fare upgrade within {_hours(FROZEN_BEFORE_DEPARTURE)} hours of departure")
    return Terms(ALLOWED, max(difference_cents, 0), f"{fare} to {new_fare}: the fare difference")


def cancel_terms(fare: str, paid_cents: int, booked_at: dt.datetime, departs_at: dt.datetime,
                 now: dt.datetime, disruption: Disruption | None = None) -> Terms:
    """Cancelling a booking of this fare for which `paid_cents` was paid; one whose flight the
    airline `disruption` frees is refunded in full, whatever the fare and the time."""
    rules = _rules(fare)
    if disruption is not None and disruption.frees:
        return Terms(REFUND, paid_cents, f"{disruption.said}: refunded in full")
    window = _time_window(booked_at, departs_at, now)
    if window == CLOSE_TO_DEPARTURE:
        return Terms(REFUSED, 0, "no cancellation within 24 hours of departure")
    if window == JUST_BOOKED:
        return Terms(REFUND, paid_cents, "booked in the last 24 hours: refunded in full")
    amount = 0 if rules.cancellation == REFUSED else paid_cents
    return Terms(rules.cancellation, amount, f"{fare}: {rules.cancellation_text}")


def _time_window(booked_at: dt.datetime, departs_at: dt.datetime, now: dt.datetime) -> str | None:
    """The time rule that decides before the fare does: too close to departure (which wins), or
    booked so recently that the fare's rules do not apply yet."""
    if departs_at - now < FROZEN_BEFORE_DEPARTURE:
        return CLOSE_TO_DEPARTURE
    if now - booked_at < FULL_REFUND_WINDOW:
        return JUST_BOOKED
    return None


def name_correction_allowed(old: str, new: str) -> bool:
    """A name may be corrected (at most MAX_NAME_CORRECTION characters inserted, removed or
    replaced, letter case aside) but never replaced by another."""
    return 0 < edit_distance(old.strip().casefold(), new.strip().casefold()) <= MAX_NAME_CORRECTION


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: the fewest single-character insertions, deletions and substitutions."""
    previous = list(range(len(b) + 1))
    for i, left in enumerate(a, 1):
        current = [i]
        for j, right in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (left != right)))
        previous = current
    return previous[-1]


def policy_text() -> str:
    """The policy as the CRM shows it (markdown)."""
    return "\n".join([
        "# Changes and cancellations",
        "",
        "Before any change or cancellation, the caller must give the booking's confirmation code and the "
        "passenger's date of birth or email.",
        "",
        "| fare | change | cancellation |",
        "| --- | --- | --- |",
        *(f"| {fare} | {rules.change_text} | {rules.cancellation_text} |" for fare, rules in FARE_RULES.items()),
        "",
        f"- A booking made in the last {_hours(FULL_REFUND_WINDOW)} hours is refunded in full if cancelled, "
        "and changed without a fee (any fare difference is still paid).",
        f"- No change and no cancellation within {_hours(FROZEN_BEFORE_DEPARTURE)} hours of departure.",
        "- A lower new fare gives nothing back.",
        f"- A booking's fare can be raised ({' to '.join(FARES)}) up to {_hours(FROZEN_BEFORE_DEPARTURE)} hours "
        "before departure, paying the fare difference; it is never lowered. After an upgrade the new fare's "
        "rules apply.",
        f"- When the airline cancels a flight, or delays it {_hours(DISRUPTING_DELAY)} hours or more, the passenger "
        f"may move to any flight of the same route departing within {REBOOKING_WINDOW.days} days after the "
        "disrupted flight's scheduled departure, with no fee and no fare difference, or cancel with a full "
        f"refund, whatever the fare and even within {_hours(FROZEN_BEFORE_DEPARTURE)} hours of departure. A "
        "shorter delay changes nothing; a later flight is changed on the fare's usual terms.",
        f"- A passenger's name may be corrected (at most {MAX_NAME_CORRECTION} characters changed), "
        "never replaced by another name.",
        "",
        "# Supervisors",
        "",
        f"Only a supervisor may {join_or(SUPERVISOR_ONLY)}. Transfer such a request to a supervisor, with a "
        "short summary of the call, and do not do it yourself; do first what the rules above allow in the same call. "
        "A customer who asks for a supervisor may be transferred.",
    ])


def join_or(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _hours(span: dt.timedelta) -> int:
    return int(span.total_seconds() // 3600)


def _rules(fare: str) -> FareRules:
    if fare not in FARE_RULES:
        raise ValueError(f"unknown fare {fare!r}; the fares: {', '.join(FARES)}")
    return FARE_RULES[fare]
