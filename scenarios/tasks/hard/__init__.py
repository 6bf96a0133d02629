"""The hard suite's tasks: a customer on the line holds the facts, and the airline's policy
decides what may be done (issue 24). `caller.py` holds what they share."""
from __future__ import annotations

from . import (book_constrained, corrected_request, disrupted_flight, escalation, false_claim, fare_question,
               find_by_name, policy_cancel, policy_change, pushback, two_requests, upgrade_to_change)

HARD = (policy_change.TASK, policy_cancel.TASK, fare_question.TASK, find_by_name.TASK,
        two_requests.TASK, corrected_request.TASK, book_constrained.TASK, pushback.TASK, false_claim.TASK,
        escalation.TASK, disrupted_flight.TASK, upgrade_to_change.TASK)
