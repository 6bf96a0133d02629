"""Card data in what a scenario stores: page events, recorded API calls and the scenario's details.

A card number is kept as its last four digits and a keyed hash, a security code as a keyed hash
only (crm_app/services/cards.py). Scoring compares gold values turned into the same forms, so it
never needs the values themselves; the details, a pure function of (task, seed), are computed
again whenever they are needed in full.
"""
from __future__ import annotations

from collections.abc import Callable

from crm_app.services.cards import CardHasher

from .targets import kind_of

Protect = Callable[[str, str], str]  # (target, normalized value) -> the value as stored


def keep(target: str, value: str) -> str:
    """No protection: for scoring events that hold plain values (tests, offline data)."""
    return value


def protector(hasher: CardHasher) -> Protect:
    """Card-number and security-code targets' values as stored; other values unchanged."""
    return lambda target, value: protect_kind(kind_of(target), value, hasher)


def protect_kind(kind: str, value, hasher: CardHasher):
    if not value or not isinstance(value, str):
        return value
    if kind == "card":
        return hasher.card_number(value)
    if kind == "security-code":
        return hasher.security_code(value)
    return value


def details_at_rest(details: dict) -> dict:
    """The details as the scenarios table keeps them: the card's last four digits, no code; also in
    what a hard scenario's customer knows (`customer`)."""
    kept = dict(details)
    card = details.get("payment-details")
    if card:
        kept["payment-details"] = {**_without(card, "security_code"), "card-number": _last_four(card["card-number"])}
    facts = details.get("customer")
    if facts and "card_number" in facts:
        kept["customer"] = {**_without(facts, "security_code"), "card_number": _last_four(facts["card_number"])}
    return kept


def _without(values: dict, key: str) -> dict:
    return {name: value for name, value in values.items() if name != key}


def _last_four(number: str) -> str:
    return "****" + number[-4:]
