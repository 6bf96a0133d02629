"""The customer variants (issue 45): callers of every kind, as the UI variants are looks of every
kind. Variant 0 is the plain caller; a scenario asks for another with ?customer_variant=K (or
`random`, drawn from its seed) and keeps it. Each variant is a small module that says the plain
caller's decisions its own way (simulator.decide: the reading of the rep's line is shared), never
changing what the caller knows or wants; it may change the gold lines a careful rep says."""
from __future__ import annotations

from crm_app.services.variant_choice import stored_variant, variant_choice

from . import impatient, plain, talkative, terse, unprepared, vague
from .base import CustomerVariant

VARIANTS: tuple[CustomerVariant, ...] = tuple(module.VARIANT for module in (plain, terse, vague, talkative,
                                                                            unprepared, impatient))
PLAIN = VARIANTS[0]
assert [variant.number for variant in VARIANTS] == list(range(len(VARIANTS)))


def variant_named(value, seed: int) -> CustomerVariant | None:
    """The variant a request names (?customer_variant=: a number, `random`), None when it names none
    (the plain caller); InvalidInput says the choices."""
    return variant_choice(value, seed, VARIANTS, "customer_variant")


def customer_variant(number: int | None) -> CustomerVariant:
    """A stored scenario's variant (None: made before variants, so the plain caller)."""
    return stored_variant(number, VARIANTS)


def variants_json() -> list[dict]:
    return [variant.json() for variant in VARIANTS]
