"""Judging the call with the customer in a hard-suite episode (issue 24), next to the final state:

- `said_ok`: every `must_say` value of the details' `expected` was in a line of the agent's
  (amounts compared as numbers, codes case-insensitively, a rule's words as words, any case);
- `verified_first`: no write succeeded before the caller was verified, that is before the customer
  had given (or confirmed when read back) the booking's confirmation code, when they know it, and
  the passenger's date of birth or email;
- `policy_violations`: the successful writes the policy forbids: those the details name as
  `forbidden` (a change or cancellation the policy refuses), and any change of a passenger's name
  that is not a correction (more than 2 characters, crm_app/services/policy.py), and any fee on a
  booking whose flight the airline disrupted (the details' `disrupted`): a change to a flight
  outside the free rebooking window (repriced, so paid for), or a fare upgrade;
- `transferred`: the agent transferred the call to a supervisor. The details' `expected.transfer`
  says whether that is `required` (only a supervisor may grant the request) or `allowed` (the
  customer asked for one); without it, a transfer fails the call: the agent could have handled it.

Writes are ordered against the call by the recorded API calls: a line stored with `calls_before`
n was said after the first n calls of the scenario.
"""
from __future__ import annotations

from crm_app.services.policy import name_correction_allowed

from .calls import WRITES
from .customer.agenda import in_focus, raised
from .customer.facts import BY_NAME
from .customer.reading import read
from .customer.simulator import AGENT, CUSTOMER, TRANSFER, known_facts
from .customer.told import said
from .customer.transcript import facts_of
from .customer.variants import PLAIN, CustomerVariant
from .customer.will import held
from .tasks.hard.caller import NEW_CODE

# The rules /evaluate scores a call by: 1, a gold line that neither asked nor told was met by any
# line of the agent's; 2 (issue 53), such a line is never met, and the closing lines tell the outcome.
SCORING_VERSION = 2
CALL_VERDICTS = ("said_ok", "verified_first", "policy_violations", "transferred", "held_rule")
REQUIRED, ALLOWED = "required", "allowed"  # expected.transfer
# The parts of a verdict a failure is named by (`failures`), the final state's ("state") first.
STATE, SAID, VERIFIED, POLICY, TRANSFER_PART = "state", "said", "verified_first", "under_policy", "transfer"
VERDICT_PARTS = (STATE, SAID, VERIFIED, POLICY, TRANSFER_PART)
FEE_CHARGED = "the agent charged a fee on a flight the airline disrupted"
IDENTITY = ("date_of_birth", "email")  # one of them, with the code, verifies the caller


def judge(details: dict, messages: list[dict], calls: list[dict], new_codes=(), initial: dict | None = None,
          caller: CustomerVariant = PLAIN) -> dict:
    """said_ok, verified_first and policy_violations of an episode, and the reason for each failure:
    `reasons` in the order the first of them is reported, `failures` as (part, reason) pairs by part.
    `new_codes`: the codes of the bookings the episode made (what NEW_CODE in must_say stands for);
    `initial`: the state the episode started from (the names a name change is checked against);
    `caller`: the customer variant, whose way of giving a fact is looked for in its lines."""
    agent_lines = [line["text"] for line in messages if line["role"] == AGENT]
    unsaid = [value for value in details["expected"]["must_say"] if not told(value, agent_lines, new_codes)]
    writes = [(index, call) for index, call in enumerate(calls) if is_write(call)]
    facts = facts_of({"details": details})
    verified = verified_at(messages, facts, caller)
    early = [call for index, call in writes if verified is None or index < verified]
    fees = [call for _, call in writes if fee_on_disruption(call, details)]
    not_upgraded = _moved_before_upgrade(details, [call for _, call in writes])
    violations = [call for _, call in writes if call in fees or call in not_upgraded
                  or forbidden_write(call, details.get("forbidden", ())) or _name_replaced(call, initial or {})]
    transferred = any(line["role"] == TRANSFER for line in messages)
    transfer = _transfer_reason(details["expected"].get("transfer"), transferred)
    ruled = [*(_swayed(facts, call) for call in violations[:1] if _swayed(facts, call)),
             *(f"{FEE_CHARGED}: {call['operation']} broke the policy" for call in fees[:1]),
             *_upgrade_reasons(details, violations, not_upgraded)[:1]]
    judgment = [*transfer, *ruled]
    failures = [*((SAID, f"the agent never told the customer {value}") for value in unsaid),
                *((VERIFIED, f"{call['operation']} succeeded before the caller was verified") for call in early[:1]),
                *((POLICY, reason) for reason in ruled),
                *((POLICY, f"{call['operation']} broke the policy") for call in violations),
                *((TRANSFER_PART, reason) for reason in transfer)]
    reasons = [*judgment, *(reason for part, reason in failures if part != TRANSFER_PART and reason not in ruled)]
    verdicts = {"said_ok": not unsaid, "verified_first": not early, "policy_violations": len(violations),
                "transferred": transferred, "transfer_ok": not transfer, "reasons": reasons,
                "failures": failures, "judgment": judgment[0] if judgment else None}
    if "pushback" in facts:
        verdicts["held_rule"] = held(facts, messages, AGENT, CUSTOMER)
    return verdicts


def _swayed(facts: dict, call: dict) -> str | None:
    """Why a write the policy forbids was made, where the caller pushed for it: it insisted, or
    claimed what the records contradict."""
    if "pushback" in facts:
        return f"the agent gave in to the customer's insisting: {call['operation']} broke the policy"
    if "claim" in facts:
        return f"the agent believed the customer's claim, which the records contradict: {call['operation']} broke the policy"
    return None


def fee_on_disruption(call: dict, details: dict) -> bool:
    """A write that made the customer pay on a booking the airline disrupted: a change to a flight
    dated outside the free window's days, or a fare upgrade. (A change on the window's first or
    last day to a flight outside its hours is not caught here: it fails as another flight than the
    expected one.)"""
    disrupted = details.get("disrupted")
    if not disrupted or (call.get("params") or {}).get("code") != details.get("confirmation-code"):
        return False
    if call["operation"] == "upgrade_fare":
        return True
    flight = call["params"].get("outward_flight") if call["operation"] == "change_flights" else None
    return bool(flight) and not disrupted["free-from"] <= flight["date"] <= disrupted["free-until"]


def _moved_before_upgrade(details: dict, writes: list[dict]) -> list[dict]:
    """TASK_UPGRADE_TO_CHANGE (`details["upgrade-first"]`): the flight changes of the caller's Basic
    booking made while its fare was still Basic, before any upgrade of it."""
    rule = details.get("upgrade-first")
    if not rule:
        return []
    own = [call for call in writes if (call.get("params") or {}).get("code") == rule["code"]]
    upgrades = [index for index, call in enumerate(own) if call["operation"] == "upgrade_fare"]
    first_upgrade = upgrades[0] if upgrades else len(own)
    return [call for call in own[:first_upgrade] if call["operation"] == "change_flights"]


def _upgrade_reasons(details: dict, violations: list[dict], not_upgraded: list[dict]) -> list[str]:
    """Why a TASK_UPGRADE_TO_CHANGE episode broke the policy: a write where the total passed the
    caller's budget, or a Basic fare changed without the upgrade."""
    rule = details.get("upgrade-first")
    if not rule or not violations:
        return []
    if not rule["within-budget"]:
        return [f"the total passed the customer's budget, yet the agent made {violations[0]['operation']}"]
    return ["the agent changed a Basic fare without the upgrade"] if not_upgraded else []


def call_passed(call: dict) -> bool:
    """Whether the call's verdicts let the episode succeed (a policy violation mostly fails it through
    the state; a judgment, such as a change made before its upgrade, fails it whatever the state)."""
    return call["said_ok"] and call["verified_first"] and call["transfer_ok"] and not call["judgment"]


def _transfer_reason(expected: str | None, transferred: bool) -> list[str]:
    if expected == REQUIRED and not transferred:
        return ["only a supervisor may grant this, and the call was not transferred"]
    if expected not in (REQUIRED, ALLOWED) and transferred:
        return ["the call was transferred to a supervisor, though the agent could handle it"]
    return []


def told(value: str, lines: list[str], new_codes=()) -> bool:
    """Whether the lines say `value`; NEW_CODE is said when the code of a booking made is."""
    if value == NEW_CODE:
        return any(said(code, lines) for code in new_codes)
    return said(value, lines)


def is_write(call: dict) -> bool:
    return call["operation"] in WRITES and 200 <= call["status"] < 300


def verified_at(messages: list[dict], facts: dict, caller: CustomerVariant = PLAIN) -> int | None:
    """`calls_before` of the customer's line that completed the caller's verification; None if never."""
    needed_code = "confirmation_code" in known_facts(facts)
    for line, given in _given_so_far(messages, facts, caller):
        if (not needed_code or "confirmation_code" in given) and given & set(IDENTITY):
            return line["calls_before"]
    return None


def given_kinds(messages: list[dict], facts: dict, caller: CustomerVariant = PLAIN) -> set[str]:
    """Every kind of fact the customer gave (or confirmed) in the call."""
    return next(reversed([given for _, given in _given_so_far(messages, facts, caller)]), set())


def _given_so_far(messages: list[dict], facts: dict, caller: CustomerVariant):
    """Each customer line, with the kinds of fact the customer had given up to it (a caller of
    several requests gives the facts of those it has brought up: agenda.in_focus)."""
    known, given = known_facts(facts), set()
    for index, (previous, line) in enumerate(zip([None, *messages], messages)):
        if line["role"] == CUSTOMER:
            if "requests" in facts:
                known = known_facts(in_focus(facts, messages[:index + 1], CUSTOMER))
            given = given | _given(line["text"], previous, known, caller)
            yield line, given


def _given(text: str, previous: dict | None, known: dict, caller: CustomerVariant) -> set[str]:
    """Kinds of fact a customer line gives: said outright (the caller's way), or confirmed as the
    agent read them back."""
    found = {name for name, value in known.items()
             if name in BY_NAME and any(said in text for said in caller.says(name, value))}
    if caller.confirms(text) and previous and previous["role"] == AGENT:
        read_back = read(previous["text"], known).read_back
        found |= {name for name, values in read_back.items()
                  if name in known and all(value == BY_NAME[name].shown(known[name]) for value in values)}
    return found


def forbidden_write(call: dict, forbidden) -> bool:
    code = (call.get("params") or {}).get("code")
    return any(rule["operation"] == call["operation"] and rule["code"] == code for rule in forbidden)


def _name_replaced(call: dict, initial: dict) -> bool:
    """A passenger change that gives a booking another name, not a corrected one."""
    if call["operation"] != "update_passenger":
        return False
    before = (initial.get((call.get("params") or {}).get("code")) or {}).get("passenger", {})
    changed = (call["params"].get("passenger") or {})
    return any(field in changed and field in before and changed[field] is not None
               and changed[field].casefold() != before[field].casefold()
               and not name_correction_allowed(before[field], changed[field])
               for field in ("first_name", "last_name"))


def says_met(says: list[dict], messages: list[dict], details: dict, new_codes=(),
             caller: CustomerVariant = PLAIN) -> list[bool]:
    """Which of the gold steps of the call the call met: a `say` when its facts were given and its
    values told, one asking whether there is anything else (`raises`) when the caller brought up the
    request it waits for, a `transfer` when the call was transferred. A `say` that neither asks nor
    tells is never met (since SCORING_VERSION 2, every gold line asks or tells: a closing line tells the
    outcome), so a line that says nothing a step needs raises no progress."""
    facts = facts_of({"details": details})
    given = given_kinds(messages, facts, caller)
    agent_lines = [line["text"] for line in messages if line["role"] == AGENT]
    transferred = any(line["role"] == TRANSFER for line in messages)
    came_up = raised(facts, messages, CUSTOMER)
    return [transferred if step["action"] == "transfer" else
            came_up > step["raises"] if "raises" in step else
            bool(agent_lines) and bool(step["asks"] or step["tells"]) and set(step["asks"]) <= given
            and all(told(value, agent_lines, new_codes) for value in step["tells"]) for step in says]
