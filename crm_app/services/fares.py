"""Fare families: every flight is sold as Basic, Standard or Flex, each at its own price.

Standard is the flight's listed price (`Flight.price_cents`); Basic is cheaper and Flex dearer by
fixed shares. What each family allows (changes, refunds) is the policy's (policy.py).
"""
from __future__ import annotations

from .errors import InvalidInput, excerpt

STANDARD = "Standard"
PRICE_PERCENT = {"Basic": 80, STANDARD: 100, "Flex": 140}  # of the listed price
FARES = tuple(PRICE_PERCENT)


def fare_price_cents(listed_cents: int, fare: str) -> int:
    """The price of a seat of this fare family on a flight listed at `listed_cents`."""
    return listed_cents * PRICE_PERCENT[fare] // 100


def check_fare(value) -> str:
    """The fare family a request names (any case); Standard when it names none."""
    if value is None:
        return STANDARD
    text = value.strip().capitalize() if isinstance(value, str) else ""
    if text not in PRICE_PERCENT:
        message = f"fare must be one of {', '.join(FARES)} (got {excerpt(str(value))})"
        raise InvalidInput(message, {"fare": message})
    return text
