"""The oracle: no model; it follows the scenario's gold steps but acts only through the
observation text and the action grammar, as an LLM agent must. If it succeeds, the harness
(observation, parser, execution, waiting, scoring) works. Gold steps name controls semantically; in
a UI variant the oracle looks for the label that variant shows (scenarios.targets.label_of), on the
page, as a person told the variant's words would. With the call on the page (`channel` "page") its
gold lines are typed into the Call panel's message box and sent, a transfer is made on the Transfer
to supervisor screen, and the call is ended with End call (unless it was transferred)."""
from __future__ import annotations

import calendar
import datetime as dt
import re

from scenarios.steps import CALL_STEPS, click, fill
from scenarios.targets import kind_of, label_of
from scenarios.tasks.hard.caller import NEW_CODE

from ..env.actions import PAGE_CHANNEL, SAY_CHANNEL, Action
from ..env.executor import FIELD_KINDS
from ..env.observation import Observation, parse_observation
from ..episode.policy import Policy

CLICK_KINDS = ("button", "link")
# The new booking's code after its label: "Confirmation code", or a variant's "Booking reference"...
NEW_CODE_SHOWN = re.compile(r"(?i:code|reference|locator)\W+([A-Z0-9]{6})\b")


class OraclePolicy(Policy):
    name = "oracle"
    needs_gold = True  # it follows the gold steps (agent/episode/policy.py)

    def __init__(self, channel: str = SAY_CHANNEL, **_options):
        self.on_page = channel == PAGE_CHANNEL  # the call on the page's Call panel (actions.CHANNELS)
        self._steps: list[dict] = []
        self._next = 0
        self._retried = False
        self._next_part = ""
        self._queued: list[str] = []  # the rest of a step that takes several actions (a date in three selects)

    def reset(self, scenario: dict) -> None:
        variant = int(scenario.get("ui_variant") or 0)
        self._next_part = label_of("passenger-next", variant=variant)  # a form's button to its second step
        gold = scenario.get("gold_actions") or []
        if any(step["action"] in ("fill", *CALL_STEPS) and "value" not in step and "text" not in step for step in gold):
            raise ValueError("The gold steps came without their values: the oracle needs the server's "
                             "operator token (--operator-token or CRM_OPERATOR_TOKEN)")
        self._steps = [{**step, "label": label_of(step["target"], step.get("value"), variant)}
                       if variant and step["action"] not in CALL_STEPS else step
                       for step in (on_the_page(gold) if self.on_page else gold)]
        self._next = 0
        self._retried = False
        self._queued = []

    def usage(self) -> dict:
        return {}

    def act(self, observation: Observation) -> tuple[str, str]:
        if observation.error and self._next > 0 and not self._retried:
            self._next -= 1  # the last action failed: try that step once more
            self._retried = True
        else:
            self._retried = False
        if self._queued:
            return f"Gold step {self._next}, continued.", self._queued.pop(0)
        if self._next >= len(self._steps):
            return "Every gold step is done.", "STOP [done]"
        step = self._steps[self._next]
        self._next += 1
        if step["action"] in CALL_STEPS:  # a line to the customer on the line, or the call's transfer (the hard suite)
            text = _with_new_code(step["text"], observation)
            return f"Gold step {self._next}: {step['action']} it.", str(Action(step["action"], value=text))
        if step["target"] == "call-message":  # a line to the customer, typed into the Call panel
            step = {**step, "value": _with_new_code(step["value"], observation)}
        elements = parse_observation(observation.text)
        actions = _actions_for(step, elements)
        shows_more = None if actions or step["action"] != "fill" else _named(elements, self._next_part, CLICK_KINDS)
        if shows_more:  # the field is in the form's second step: show it, then try the step again
            self._next -= 1
            return f"Gold step {self._next + 1} is further on in the form.", f"CLICK {shows_more['id']}"
        if not actions:
            return f"No element on the page for gold step {step}.", "STOP [element not found]"
        action, *self._queued = actions
        return f"Gold step {self._next}: {step['action']} {step.get('label', step['target'])}.", action


def on_the_page(gold: list[dict]) -> list[dict]:
    """The gold steps with the call on the page: each line typed into the Call panel's message box
    and sent, a transfer made on the Transfer to supervisor screen, then End call unless the call
    was transferred (a transferred call has ended)."""
    steps = []
    for step in gold:
        if step["action"] == "say":
            steps += [fill("call-message", step["text"]), click("call-send")]
        elif step["action"] == "transfer":
            steps += [click("nav-transfer"), fill("transfer-summary", step["text"]), click("transfer-submit")]
        else:
            steps.append(step)
    transferred = any(step["action"] == "transfer" for step in gold)
    return steps if transferred else [*steps, click("call-end")]


def _actions_for(step: dict, elements: list[dict]) -> list[str]:
    action = _action_for(step, elements)
    if action is None and kind_of(step["target"]) == "date":
        return _date_in_parts(elements, step["label"], step["value"])
    return [action] if action else []


def _date_in_parts(elements: list[dict], label: str, value: str) -> list[str]:
    """A date given as three selects named "<label>: month", ": day" and ": year" (some UI variants)."""
    parts = {part: _named(elements, f"{label}: {part}", {"select"}) for part in ("month", "day", "year")}
    if not all(parts.values()):
        return []
    day = dt.date.fromisoformat(value)
    chosen = {"month": calendar.month_name[day.month], "day": str(day.day), "year": str(day.year)}
    return [f'TYPE {parts[part]["id"]} "{chosen[part]}"' for part in ("month", "day", "year")]


def _action_for(step: dict, elements: list[dict]) -> str | None:
    value, kind = step.get("value", ""), kind_of(step["target"])
    if step["action"] == "click":
        element = _named(elements, step["label"], CLICK_KINDS)
        return f"CLICK {element['id']}" if element else None
    if kind == "flight":
        element = _row_naming(elements, value)
        return f"CLICK {element['id']}" if element else None
    if kind == "choice":  # radio buttons, each named by its value ("oneway" -> "One way") or its label,
        names = (_squashed(value), _squashed(step["label"]))
        radio = next((e for e in elements if e["kind"] == "radio" and _squashed(e["name"]) in names), None)
        if radio is not None:
            return f"CLICK {radio['id']}"
    element = _named(elements, step["label"], FIELD_KINDS)  # or a field: a select of the full suite's page
    if element is None:  # or one of a list of radios, each naming its value (a booking among matches)
        row = _row_naming(elements, value)
        return f"CLICK {row['id']}" if row and row["kind"] == "radio" else None
    if element["kind"] == "select":  # an option named by the value, or an airport's ending in its code
        value = next((o for o in element.get("options", []) if o.lower() == str(value).lower()
                      or kind == "airport" and o.endswith(f"({value})")), value)
    return f'TYPE {element["id"]} "{value}"'


def _with_new_code(text: str, observation: Observation) -> str:
    """A gold line naming the booking the episode made: its code as the confirmation page shows it."""
    shown = NEW_CODE_SHOWN.search(observation.text)
    return text.replace(NEW_CODE, shown.group(1)) if shown else text


def _named(elements: list[dict], label: str, kinds) -> dict | None:
    wanted = label.strip().lower()
    return next((e for e in elements if e["kind"] in kinds and e["name"].lower() == wanted), None)


def _row_naming(elements: list[dict], value: str) -> dict | None:
    """The selectable control of the row showing this value (a flight number, a booking's code)."""
    for index, element in enumerate(elements):
        if value not in element["name"].split():
            continue
        if element["kind"] in ("radio", "button", "option"):
            return element
        return next((e for e in elements[index + 1:] if e["kind"] in ("radio", "button")), element)
    return None


def _squashed(text: str) -> str:
    return "".join(str(text).lower().split())
