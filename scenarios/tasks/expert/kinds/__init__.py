"""The request kinds, one module each, and lookup by name (`KINDS`)."""
from __future__ import annotations

from . import (booking_question, cancel, certificate, change, conditional_change, current_fee, fare_question,
               fare_upgrade, fishing, flight_status, name_correction, new_booking, planted_instruction, pressure,
               rebooking, supervisor, temporary_rule, unverified_caller, waiver)

KINDS = {module.KIND.name: module.KIND for module in (
    change, cancel, fare_question, fare_upgrade, rebooking, name_correction, new_booking, flight_status,
    supervisor, booking_question)}
# The requests answered from the knowledge base (issue 50): composed by their own templates
KNOWLEDGE_KINDS = {module.KIND.name: module.KIND for module in (certificate, waiver, current_fee)}
KINDS.update(KNOWLEDGE_KINDS)
# Callers who try to get what they should not (issue 50): composed by templates of their own
# (templates.py), never into the calls made of every pair of KINDS.
ADVERSARIAL = {module.KIND.name: module.KIND for module in (unverified_caller, fishing, pressure, planted_instruction)}
# A fee a temporary rule bulletin changes for some days (issue 50): composed by templates of its own.
TEMPORARY_RULES = {temporary_rule.KIND.name: temporary_rule.KIND}
ALL_KINDS = {**KINDS, **ADVERSARIAL, **TEMPORARY_RULES}

CONDITIONAL = conditional_change.KIND  # the change kind said with a condition ("if it costs at most $X")


def kind_of(request: dict):
    """The kind that handles a drawn request."""
    return CONDITIONAL if request.get("conditional") else ALL_KINDS[request["kind"]]
