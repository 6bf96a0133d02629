"""The CRM's UI variants (issue 25): the same CRM in other looks, to measure whether an agent
generalizes beyond the one page it was shown. Variant 0 is the page as it has always been; a
scenario asks for another with ?ui_variant=K (or `random`, drawn from its seed) and keeps it.

A variant is data: its number, a one-line description, and what it changes. So far each changes
the theme (colours, type and spacing: a class on the page's body, static/style.css); wording,
order, widgets and identifiers are still those of variant 0.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .services.errors import InvalidInput

RANDOM = "random"


@dataclass(frozen=True)
class UiVariant:
    number: int
    description: str
    theme: str = ""  # the CSS class of the page's body; "" for variant 0's plain look


VARIANTS: tuple[UiVariant, ...] = (
    UiVariant(0, "the CRM as the papers' agents saw it"),
    UiVariant(1, "dusk: dark surfaces, light text", "theme-dusk"),
    UiVariant(2, "print: serif type on cream, thin rules", "theme-print"),
    UiVariant(3, "compact: small type, tight spacing", "theme-compact"),
    UiVariant(4, "roomy: large type, wide spacing", "theme-roomy"),
    UiVariant(5, "contrast: black on white, heavy borders", "theme-contrast"),
    UiVariant(6, "forest: green brand colours, rounded cards", "theme-forest"),
)
DEFAULT = VARIANTS[0]


def variant_named(value, seed: int) -> UiVariant:
    """The variant a request names: a number, `random` (drawn from the scenario's seed), or none
    (variant 0); InvalidInput says the choices."""
    text = value.strip().lower() if isinstance(value, str) else ""
    if not text:
        return DEFAULT
    if text == RANDOM:
        return random.Random(f"ui-variant:{seed}").choice(VARIANTS)
    if text.isdigit() and int(text) < len(VARIANTS):
        return VARIANTS[int(text)]
    raise InvalidInput(f"ui_variant must be a number from 0 to {len(VARIANTS) - 1} or {RANDOM!r}, "
                       f"not {str(value)[:20]!r}", {"ui_variant": "Unknown UI variant"})


def variant(number: int | None) -> UiVariant:
    """A stored scenario's variant (None: made before variants, so 0)."""
    return VARIANTS[number] if number and 0 < number < len(VARIANTS) else DEFAULT


def variants_json() -> list[dict]:
    return [{"id": v.number, "description": v.description} for v in VARIANTS]
