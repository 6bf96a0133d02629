"""A scripted policy to copy: it reads the confirmation code out of the instruction and looks the
booking up (TASK_FIND_BOOKING), or cancels it (TASK_CANCEL_FLIGHT), acting on the page by the
labels it sees. Run it on those tasks, from the repository's root:

    python -m agent run --method examples.scripted_policy:ScriptedPolicy \
        --tasks TASK_FIND_BOOKING,TASK_CANCEL_FLIGHT --episodes 3

A policy is a subclass of Policy with reset() and act(); the contract is agent/episode/policy.py.
"""
from __future__ import annotations

import re

from agent.episode.policy import Policy

CODE = re.compile(r"\b(?=[A-Z0-9]*\d)[A-Z0-9]{6}\b")  # six capitals and digits, one digit at least


class ScriptedPolicy(Policy):
    name = "scripted"

    def reset(self, scenario: dict) -> None:
        # `scenario` is what an agent may see: id, url, instruction, conversation, actions.
        text = " ".join([scenario["instruction"], *(line["text"] for line in scenario["conversation"])])
        found = CODE.search(text)
        self.code = found.group(0) if found else ""
        self.cancel = "cancel" in scenario["instruction"].lower()
        self.done = 0  # how many of the plan's actions were sent

    def act(self, observation) -> tuple[str, str]:
        plan = ["CLICK Find booking", f'TYPE Confirmation code "{self.code}"', "CLICK Search"]
        if self.cancel:
            plan += ["CLICK Cancel booking", f'TYPE {self._last_code_field(observation)} "{self.code}"',
                     "CLICK Confirm cancellation"]
        if not self.code or self.done >= len(plan):
            return "Nothing left to do.", "STOP [done]"
        self.done += 1
        return f"Step {self.done} of {len(plan)}.", plan[self.done - 1]

    @staticmethod
    def _last_code_field(observation) -> str:
        """The id of the cancel dialog's code field: the last field labelled Confirmation code."""
        fields = [e for e in observation.elements if e["kind"] == "input" and e["name"] == "Confirmation code"]
        return str(fields[-1]["id"]) if fields else "Confirmation code"
