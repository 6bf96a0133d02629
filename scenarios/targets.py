"""The semantic targets of the UI (data-testid / data-field names of variant 0) with how their values
compare and which form they belong to; their visible labels, in every UI variant, come from the
page's words (crm_app/ui_variants/wording.py).

One table for everyone who names a control: gold steps, the evaluator's normalization, and agents
that find a control by its label. docs/ui-contract.md is the human-readable version.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from crm_app.airports import code_from_label
from crm_app.services.dates import read_date
from crm_app.services.validation import card_digits
from crm_app.ui_variants.wording import words


@dataclass(frozen=True)
class Target:
    kind: str  # how values are normalized: text, airport, date, card, security-code, choice, flight, button, expiry
    form: str = ""  # the page's [data-form] container whose fields a click on this control snapshots


TARGETS: dict[str, Target] = {
    "nav-home": Target("button"),
    "nav-find-booking": Target("button"),
    "nav-help": Target("button"),
    "trip-type": Target("choice", "search"),  # values: return, oneway
    "search-from": Target("airport", "search"),
    "search-to": Target("airport", "search"),
    "search-depart": Target("date", "search"),
    "search-return": Target("date", "search"),
    "search-submit": Target("button", "search"),
    "outward-flight": Target("flight", "results"),
    "return-flight": Target("flight", "results"),
    "checkout": Target("button", "results"),
    "passenger-title": Target("choice", "passenger"),
    "passenger-firstname": Target("text", "passenger"),
    "passenger-lastname": Target("text", "passenger"),
    "passenger-email": Target("email", "passenger"),
    "passenger-gender": Target("choice", "passenger"),
    "passenger-dob": Target("date", "passenger"),
    "passenger-save": Target("button", "passenger"),
    "payment-card-number": Target("card", "payment"),
    "payment-expiry": Target("expiry", "payment"),
    "payment-security-code": Target("security-code", "payment"),
    "payment-name-on-card": Target("text", "payment"),
    "book-flight": Target("button", "payment"),
    "find-code": Target("code", "find"),
    "find-submit": Target("button", "find"),
    "modify-booking": Target("button"),
    "cancel-booking": Target("button"),
    "cancel-code": Target("code", "cancel"),
    "cancel-close": Target("button", "cancel"),
    "cancel-confirm": Target("button", "cancel"),
    "modify-passenger-title": Target("choice", "modify-passenger"),
    "modify-passenger-firstname": Target("text", "modify-passenger"),
    "modify-passenger-lastname": Target("text", "modify-passenger"),
    "modify-passenger-email": Target("email", "modify-passenger"),
    "modify-passenger-gender": Target("choice", "modify-passenger"),
    "modify-passenger-dob": Target("date", "modify-passenger"),
    "modify-passenger-save": Target("button", "modify-passenger"),
    "change-flights": Target("button", "change-flights"),
    "change-from": Target("airport", "change-flights"),
    "change-to": Target("airport", "change-flights"),
    "change-depart": Target("date", "change-flights"),
    "change-return": Target("date", "change-flights"),
    "change-search": Target("button", "change-flights"),
    "change-outward-flight": Target("flight", "change-flights"),
    "change-return-flight": Target("flight", "change-flights"),
    "save-flights": Target("button", "change-flights"),
    # The hard suite's CRM only (SuiteLook.airline_policy)
    "nav-booking-search": Target("button"),
    "nav-policy": Target("button"),
    "nav-transfer": Target("button"),
    # the expert suite's Knowledge base screen (SuiteLook.knowledge_base, issue 50)
    "nav-kb": Target("button"),
    "kb-search-q": Target("text", "kb"),
    "kb-search-submit": Target("button", "kb"),
    "kb-result": Target("text", "kb"),  # value: an article's id
    "kb-open": Target("button", "kb"),
    "kb-superseded-by": Target("button", "kb"),
    "transfer-summary": Target("text", "transfer"),
    "transfer-submit": Target("button", "transfer"),
    "booking-search-lastname": Target("text", "booking-search"),
    "booking-search-date": Target("date", "booking-search"),
    "booking-search-submit": Target("button", "booking-search"),
    "booking-search-match": Target("code", "booking-search"),  # value: a confirmation code
    "booking-search-open": Target("button", "booking-search"),
    "fare": Target("choice", "results"),  # values: basic, standard, flex
    # the fare upgrade on the Modify booking screen (hard suite)
    "upgrade-fare": Target("choice", "upgrade"),  # values: standard, flex
    "upgrade-quote": Target("button", "upgrade"),
    "upgrade-submit": Target("button", "upgrade"),
    # the hard suite's call panel: a line to the customer typed and sent, the call ended
    "call-message": Target("text", "call"),
    "call-send": Target("button", "call"),
    "call-end": Target("button"),
}


def label_of(target: str, value=None, variant: int = 0) -> str:
    """The visible label or button text of a target in a UI variant; for a choice shown as options
    with words of their own (the trip type), the option's for `value`."""
    said = words(variant)
    option = f"{target}-{value}"
    return said[option] if value is not None and option in said else said[target]


def kind_of(target: str) -> str:
    return TARGETS[target].kind if target in TARGETS else "text"


def normalize(target: str, value) -> str:
    """A value as events and gold steps compare it: trimmed, codes upper-case, dates ISO."""
    if isinstance(value, str):
        return _normalized_text(target, value)
    return normalize_kind(kind_of(target), value)


@lru_cache(maxsize=8192)
def _normalized_text(target: str, value: str) -> str:
    # Scoring normalizes the same few values again and again (a date at every click): remembered.
    return normalize_kind(kind_of(target), value)


def normalize_kind(kind: str, value) -> str:
    """A value of a field of this kind, normalized (see `normalize`)."""
    text = "" if value is None else str(value).strip()
    if kind == "airport":
        return code_from_label(text)
    if kind in ("code", "flight"):
        return text.upper()
    if kind == "date":
        day = read_date(text)
        return day.isoformat() if day else text
    if kind == "card":
        return card_digits(text)
    if kind in ("email", "choice"):
        return text.lower()
    return text

