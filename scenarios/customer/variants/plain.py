"""Variant 0, the plain caller: every fact asked given at once, in full, politely (simulator.py as
it always was)."""
from .base import CustomerVariant

VARIANT = CustomerVariant(0, "plain", "the cooperative caller: every fact asked, at once, in full")
