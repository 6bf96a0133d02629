"""A scenario's activity with the times the server received it, for the operator alone
(GET /scenario-activity): the page's events and the call's lines, each in arrival order with
`received` (ISO 8601, UTC, the server's clock). A person's play (agent/play/) is timed step by step
from it. The answers the agent sees (/evaluate, GET /api/customer/messages) carry no times.

The customer's opening line is not in the call here: it is the scenario's, never stored, and so
has no time of its own."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from crm_app.models import CustomerMessage, Event


def activity(session: Session, scenario_id: str) -> dict:
    """{"id", "events": [{"page", "seq", "action", "target", "value", "received"}...],
    "call": [{"role", "text", "received"}...]}; the call includes the `end` mark of a call the rep ended."""
    events = session.execute(select(Event.page, Event.seq, Event.action, Event.target, Event.value, Event.received_at)
                             .where(Event.scenario_id == scenario_id).order_by(Event.id)).all()
    lines = session.execute(select(CustomerMessage.role, CustomerMessage.text, CustomerMessage.received_at)
                            .where(CustomerMessage.scenario_id == scenario_id).order_by(CustomerMessage.id)).all()
    return {"id": scenario_id,
            "events": [{"page": page, "seq": seq, "action": action, "target": target, "value": value,
                        "received": _iso(received)} for page, seq, action, target, value, received in events],
            "call": [{"role": role, "text": text, "received": _iso(received)} for role, text, received in lines]}


def _iso(moment: dt.datetime | None) -> str | None:
    """The stored time (UTC without its zone) as ISO 8601 with its zone; None for a row stored
    before times were kept."""
    if moment is None:
        return None
    return moment.replace(tzinfo=dt.timezone.utc).isoformat(timespec="milliseconds")
