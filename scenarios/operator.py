"""The operator token: who may read the gold answers of /evaluate.

An agent under test can open any URL, so `/evaluate` answers the scores to anyone but gives the
gold steps' values (what to type) only with the server's operator token, sent as the header
`X-Operator-Token` or as `?token=`. A wrong token is refused outright, so a mistyped one is noticed.
"""
from __future__ import annotations

import hmac

from flask import abort, current_app, request

HEADER = "X-Operator-Token"
GOLD_VALUES = ("value", "text", "tells")


def is_operator() -> bool:
    """Whether the request carries the operator token; aborts with 403 on a wrong one."""
    given = request.headers.get(HEADER) or request.args.get("token")
    if not given:
        return False
    if not hmac.compare_digest(given.encode(), current_app.config["OPERATOR_TOKEN"].encode()):
        abort(403, description=f"{HEADER} does not match this server's operator token "
                               "(run.py prints it; CRM_OPERATOR_TOKEN sets it)")
    return True


def without_gold_values(result: dict) -> dict:
    """The /evaluate answer as anyone may see it: gold steps without their `value` (nor, for a line
    to the customer, its `text` and the values it `tells`), gold calls without their `params`."""
    gold = [{key: value for key, value in step.items() if key not in GOLD_VALUES} for step in result["gold_actions"]]
    calls = [{"operation": call["operation"]} for call in result["gold_calls"]]
    return {**result, "gold_actions": gold, "gold_calls": calls}
