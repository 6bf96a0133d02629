"""A scenario's call with its customer, stored: the customer's opening line (the first line of the
scenario's conversation the customer says), then every line the agent says and the reply it gets,
and, when the agent transfers the call to a supervisor, its summary (a `transfer` line) and the
customer's last line; a transferred call takes no more lines. The rep may also end the call (the
page's End call): an `end` mark is stored, which the call's lines leave out (an ended call has the
lines of one that was not), and the call takes no more lines either."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from crm_app.db import dataset_lock, write_transaction
from crm_app.models import ApiCall, CustomerMessage
from crm_app.services.errors import Conflict, InvalidInput

from ..limits import LimitReached
from .facts import DATE_KINDS
from .simulator import AGENT, CUSTOMER, HOLDING, RULES, TRANSFER

ENDED = "end"  # the stored mark of a call the rep ended; not a line of the call

MAX_TEXT = 8000  # characters in one line of the agent's (real agents say up to about 5,000)
MAX_LINES = 200  # lines the agent may say in one scenario
REQUIRED = {"text": "text is required: what the agent says to the customer",
            "summary": "summary is required: what the supervisor needs to know of the call"}
TRANSFERRED = "The call was transferred to a supervisor and has ended; reset the scenario to start over"
HUNG_UP = "The call has ended; reset the scenario to start over"


def clean_text(body, field: str = "text") -> str:
    """The agent's line (or a transfer's summary: `field`) from a request body {"text": "..."};
    InvalidInput saying what is wrong."""
    text = body.get(field) if isinstance(body, dict) else None
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput(REQUIRED[field], {field: REQUIRED[field]})
    if len(text) > MAX_TEXT:
        raise InvalidInput(f"{field} is at most {MAX_TEXT} characters", {field: "Too long"})
    return text.strip()


def opening(told: dict) -> list[dict]:
    """The customer's first line of the scenario's conversation, as the call's first message."""
    said = [line["text"] for line in told.get("conversation") or [] if line.get("role") == "CUS"]
    return [{"role": CUSTOMER, "text": said[0]}] if said else []


def facts_of(told: dict) -> dict:
    """What the customer knows: the scenario's hidden facts (`details["customer"]`, dates as ISO
    text) and, as its request, its opening line."""
    known = _with_dates(dict((told.get("details") or {}).get("customer") or {}))
    if "corrections" in known:
        known["corrections"] = _with_dates(dict(known["corrections"]))
    if "requests" in known:  # a caller of several requests (agenda.py): the facts of each
        known["requests"] = [{**request, "facts": _with_dates(dict(request["facts"]))} for request in known["requests"]]
    first = opening(told)
    if first and "request" not in known:
        known["request"] = first[0]["text"]
    return known


def _with_dates(facts: dict) -> dict:
    for name in DATE_KINDS:
        if isinstance(facts.get(name), str):
            facts[name] = dt.date.fromisoformat(facts[name])
    return facts


def messages(session: Session, scenario_id: str, told: dict) -> list[dict]:
    """The call so far: [{"role", "text"}...], the opening line first."""
    return [{"role": line["role"], "text": line["text"]} for line in timed_messages(session, scenario_id, told)]


_ROWS = (select(CustomerMessage.role, CustomerMessage.text, CustomerMessage.calls_before)
         .where(CustomerMessage.scenario_id == bindparam("scenario_id"))
         .order_by(CustomerMessage.id))  # built once: /evaluate reads the call on every step of one


def stored_rows(session: Session, scenario_id: str) -> list[dict]:
    """What the call has stored, in order: its lines and an end mark (a timeline's line counts count
    both), each with `calls_before`: how many API calls the scenario had recorded when it was said."""
    return [{"role": role, "text": text, "calls_before": before}
            for role, text, before in session.execute(_ROWS, {"scenario_id": scenario_id}).all()]


def call_lines(told: dict, rows: list[dict]) -> list[dict]:
    """The call's lines from its stored rows (stored_rows, or the first of them): the opening line
    (no API call before it), then every row but an end mark."""
    return [{**line, "calls_before": 0} for line in opening(told)] + [row for row in rows if row["role"] != ENDED]


def timed_messages(session: Session, scenario_id: str, told: dict) -> list[dict]:
    """The call with, on every line, `calls_before`, which orders the call against the writes the
    agent made."""
    return call_lines(told, stored_rows(session, scenario_id))


def row_count(session: Session, scenario_id: str) -> int:
    """How many rows the call has stored (lines and an end mark): what a driver gives as the second
    number of a timeline mark (scenarios/timeline.py) for the call as it stands."""
    return session.scalar(select(func.count()).select_from(CustomerMessage)
                          .where(CustomerMessage.scenario_id == scenario_id))


def say(session: Session, scenario_id: str, told: dict, text: str, customer=RULES) -> str:
    """Store the agent's line and `customer`'s reply, in one transaction; the reply. The reply is
    made first, outside the transaction (a model may take seconds), from the call as it stood."""
    said = messages(session, scenario_id, told)
    _check_open(session, scenario_id)
    _check_room(session, scenario_id)
    answer = customer.reply(facts_of(told), said + [{"role": AGENT, "text": text}])
    hung_up = [(ENDED, "", None)] if customer.ends_call(answer) else []  # the caller ends the call
    with write_transaction(session, dataset_lock(scenario_id)):
        _check_open(session, scenario_id)
        _check_room(session, scenario_id)
        _store(session, scenario_id, [(AGENT, text, None), (CUSTOMER, answer, customer.speaker), *hung_up])
    return answer


def transfer(session: Session, scenario_id: str, summary: str) -> str:
    """Transfer the call to a supervisor with the agent's `summary`, in one transaction: the call
    ends (Conflict if it already has); the customer's last line."""
    with write_transaction(session, dataset_lock(scenario_id)):
        _check_open(session, scenario_id)
        _store(session, scenario_id, [(TRANSFER, summary, None), (CUSTOMER, HOLDING, RULES.speaker)])
    return HOLDING


def end(session: Session, scenario_id: str) -> None:
    """End the call (the rep hangs up), in one transaction; Conflict if it already has ended."""
    with write_transaction(session, dataset_lock(scenario_id)):
        _check_open(session, scenario_id)
        _store(session, scenario_id, [(ENDED, "", None)])


def ending(session: Session, scenario_id: str) -> str | None:
    """How the call ended: "transfer", "end", or None while it is open."""
    return session.scalar(select(CustomerMessage.role).where(
        CustomerMessage.scenario_id == scenario_id, CustomerMessage.role.in_((TRANSFER, ENDED)))
        .order_by(CustomerMessage.id).limit(1))


def _store(session: Session, scenario_id: str, lines: list[tuple[str, str, str | None]]) -> None:
    """Add the call's next lines, (role, text, speaker), each with how many API calls the scenario had
    recorded when it was said."""
    calls = session.scalar(select(func.count()).select_from(ApiCall).where(ApiCall.scenario_id == scenario_id))
    session.add_all([CustomerMessage(scenario_id=scenario_id, role=role, text=text, calls_before=calls, speaker=speaker)
                     for role, text, speaker in lines])


def _check_open(session: Session, scenario_id: str) -> None:
    ended = ending(session, scenario_id)
    if ended is not None:
        raise Conflict(TRANSFERRED if ended == TRANSFER else HUNG_UP)


def _check_room(session: Session, scenario_id: str) -> None:
    said = session.scalar(select(func.count()).select_from(CustomerMessage).where(
        CustomerMessage.scenario_id == scenario_id, CustomerMessage.role == AGENT))
    if said >= MAX_LINES:
        raise LimitReached(f"The agent has said {MAX_LINES} lines in this scenario, as many as the server keeps "
                           "for one; reset it with /reset-scenario to start over")


def speaker(session: Session, scenario_id: str, default: str) -> str:
    """Which customer answered the call: the one that said its first reply, else `default` (the
    server's own, which will answer it)."""
    first = session.scalar(select(CustomerMessage.speaker).where(
        CustomerMessage.scenario_id == scenario_id, CustomerMessage.role == CUSTOMER).order_by(CustomerMessage.id))
    return first or default
