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
    """The details as the scenarios table keeps them: the card's last four digits, no code."""
    card = details.get("payment-details")
    if not card:
        return details
    kept = {key: value for key, value in card.items() if key != "security_code"}
    return {**details, "payment-details": {**kept, "card-number": "****" + card["card-number"][-4:]}}
