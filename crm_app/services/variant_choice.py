"""A request's choice among numbered variants (the page's looks, the hard suite's callers): a
number, `random` (drawn from the scenario's seed, so that a seed still names one scenario), or none;
and a stored scenario's variant by its number."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from .numbers import whole_number

RANDOM = "random"
Variant = TypeVar("Variant")


def variant_choice(value, seed: int, variants: Sequence[Variant], parameter: str) -> Variant | None:
    """The variant `value` (the request's `parameter`) names, or None when it names none;
    InvalidInput says the choices."""
    text = value.strip().lower() if isinstance(value, str) else ""
    if not text:
        return None
    if text == RANDOM:
        return random.Random(f"{parameter.replace('_', '-')}:{seed}").choice(variants)
    last = len(variants) - 1
    return variants[whole_number(text, parameter, last, f"a number from 0 to {last} or {RANDOM!r}")]


def stored_variant(number: int | None, variants: Sequence[Variant]) -> Variant:
    """A stored scenario's variant (None: made before there were variants, so the first)."""
    return variants[number] if number and 0 < number < len(variants) else variants[0]
