"""The oracle: no model; it follows the scenario's gold steps but acts only through the
observation text and the action grammar, as an LLM agent must. If it succeeds, the harness
(observation, parser, execution, waiting, scoring) works. Gold steps name controls semantically; in
a UI variant the oracle looks for the label that variant shows (scenarios.targets.label_of), on the
page, as a person told the variant's words would."""
from __future__ import annotations

import re

from scenarios.targets import kind_of, label_of
from scenarios.tasks.hard.caller import NEW_CODE

from ..env.actions import Action
from ..env.executor import FIELD_KINDS
from ..env.observation import Observation, parse_observation
from ..episode.policy import Policy

CLICK_KINDS = ("button", "link")
# The new booking's code after its label: "Confirmation code", or a variant's "Booking reference"...
NEW_CODE_SHOWN = re.compile(r"(?i:code|reference|locator)\W+([A-Z0-9]{6})\b")


class OraclePolicy(Policy):
    name = "oracle"

    def __init__(self, **_options):
        self._steps: list[dict] = []
        self._next = 0
        self._retried = False

    def reset(self, scenario: dict) -> None:
        variant = int(scenario.get("ui_variant") or 0)
        self._steps = [{**step, "label": label_of(step["target"], step.get("value"), variant)}
                       if variant and step["action"] != "say" else step
                       for step in scenario.get("gold_actions") or []]
        if any(step["action"] in ("fill", "say") and "value" not in step and "text" not in step
               for step in self._steps):
            raise ValueError("The gold steps came without their values: the oracle needs the server's "
                             "operator token (--operator-token or CRM_OPERATOR_TOKEN)")
        self._next = 0
        self._retried = False

    def usage(self) -> dict:
        return {}

    def act(self, observation: Observation) -> tuple[str, str]:
        if observation.error and self._next > 0 and not self._retried:
            self._next -= 1  # the last action failed: try that step once more
            self._retried = True
        else:
            self._retried = False
        if self._next >= len(self._steps):
            return "Every gold step is done.", "STOP [done]"
        step = self._steps[self._next]
        self._next += 1
        if step["action"] == "say":  # a line to the customer on the line (the hard suite)
            return f"Gold step {self._next}: say it.", str(Action("say", value=_with_new_code(step["text"], observation)))
        elements = parse_observation(observation.text)
        action = _action_for(step, elements)
        if action is None:
            return f"No element on the page for gold step {step}.", "STOP [element not found]"
        return f"Gold step {self._next}: {step['action']} {step.get('label', step['target'])}.", action


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
    if element["kind"] == "select":
        value = next((o for o in element.get("options", []) if o.lower() == str(value).lower()), value)
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
