"""Each request of an expert call judged on its own (issue 49): its booking as expected (or the
booking it makes), its values told, no write on it that the policy forbids, and the transfer it
needs; a conditional one, its cost told before any write on it. A request the caller never got to
bring up fails (the call ended first, or the rep never
asked whether there was anything else). A pure function of the episode, like every score."""
from __future__ import annotations

import re

from ...conversation_scoring import REQUIRED, fee_on_disruption, forbidden_write, is_write, told
from ...customer.agenda import raised
from ...customer.reading import refuses
from ...customer.simulator import AGENT, CUSTOMER, TRANSFER
from ...customer.told import said
from ...customer.transcript import facts_of
from ..base import Outcome
from .composer import request_state


def judge_requests(outcome: Outcome, messages: list[dict], new_codes=(), violations=()) -> list[dict]:
    """For each request of the call: its `kind`, `booking`, `ok` and every reason it is not (`why`);
    `violations` (scenarios/violations.py) fail the request they belong to."""
    details = outcome.details
    came_up = raised(facts_of({"details": details}), messages, CUSTOMER)
    lines = [line["text"] for line in messages if line["role"] == AGENT]
    transferred = any(line["role"] == TRANSFER for line in messages)
    writes = [call for call in outcome.calls if is_write(call)]
    verdicts = []
    for request in details["requests"]:
        why = [*([f"the customer never got to ask: {request['says']}"] if request["index"] >= came_up else []),
               *([state] if (state := request_state(request, outcome)) else []),
               *(f"the agent never told the customer {value}" for value in request["expected"]["must_say"]
                 if not told(value, lines, new_codes)),
               *(wrong["why"] for wrong in request.get("wrong", ()) if _told_wrong(wrong["value"], request, details["requests"], messages)),
               *(f"{call['operation']} on booking {call['params'].get('code')} broke the policy" for call in writes
                 if forbidden_write(call, request["forbidden"]) or fee_on_disruption(call, request)),
               *(["only a supervisor may grant this, and the call was not transferred"]
                 if request["expected"].get("transfer") == REQUIRED and not transferred else []),
               *([f"the agent acted on booking {request['booking']} before telling the customer what the change "
                  "costs"] if not _quoted_first(request, messages, outcome.calls) else []),
               *(["the agent never told the caller it cannot do this"]
                 if request["expected"].get("refusal") and not _refused(request, messages) else []),
               *(f"the agent told the caller the {v['told']} it may not hear ({v['article']})" for v in violations
                 if v["request"] == request["index"] and "told" in v)]
        verdicts.append({"kind": request["kind"], "booking": request.get("booking"), "ok": not why, "why": why})
    return verdicts


AMOUNT = re.compile(r"^\d+\.\d{2}$")
MONEY = re.compile(r"\$\s?(\d[\d,]*(?:\.\d{1,2})?)|(\d[\d,]*(?:\.\d{1,2})?)\s*(?:dollars|usd)\b", re.I)


def _told_wrong(value: str, request: dict, requests: list[dict], messages: list[dict]) -> bool:
    """Whether the rep told `value` while the request was in hand (from the caller's line bringing it
    up to the one bringing up the next): an amount as money ($50, 50.00 dollars), words as words."""
    lines = _in_hand(request, requests[request["index"] + 1:request["index"] + 2], messages)
    if not AMOUNT.match(value):
        return said(value, lines)
    return any(round(float((found[0] or found[1]).replace(",", "")), 2) == float(value)
               for line in lines for found in MONEY.findall(line))


def _in_hand(request: dict, following: list[dict], messages: list[dict]) -> list[str]:
    """The rep's lines from the caller's line that brought the request up to the one that brought up
    the next (the opening line brings up the first)."""
    starts = [index for index, line in enumerate(messages) if line["role"] == CUSTOMER and request["says"] in line["text"]]
    start = starts[0] if starts else (0 if request["index"] == 0 else len(messages))
    later = [index for index, line in enumerate(messages) if index > start and line["role"] == CUSTOMER
             and any(other["says"] in line["text"] for other in following)]
    end = later[0] if later else len(messages)
    return [line["text"] for line in messages[start:end] if line["role"] == AGENT]


def _quoted_first(request: dict, messages: list[dict], calls: list[dict]) -> bool:
    """A conditional request (`quote-first`: the change's cost): the rep told the cost before the
    first write on its booking (a line said with `calls_before` n came after the first n calls)."""
    quote = request.get("quote-first")
    first = next((index for index, call in enumerate(calls)
                  if is_write(call) and (call.get("params") or {}).get("code") == request.get("booking")), None)
    if quote is None or first is None:
        return True
    return any(line["role"] == AGENT and line.get("calls_before", 0) <= first and said(quote, [line["text"]])
               for line in messages)


def _refused(request: dict, messages: list[dict]) -> bool:
    """A request the rep must turn down (`expected.refusal`): a line of the rep's after the caller
    brought it up refuses, as the customer hears a refusal (customer/reading.refuses)."""
    asked = next((i for i, line in enumerate(messages) if line["role"] == CUSTOMER and request["says"] in line["text"]),
                 None)
    return asked is not None and any(line["role"] == AGENT and refuses(line["text"]) for line in messages[asked:])
