"""`flat`: one prompt with every instruction (and, few-shot, examples); the model answers
REASON then ACTION for each observation, seeing the task, the page and its previous actions."""
from __future__ import annotations

from ..observation import Observation
from . import register
from .llm_policy import LLMPolicy
from .prompting import examples, render


@register("flat")
class FlatPolicy(LLMPolicy):
    name = "flat"

    def __init__(self, shots: str = "0", client=None, **options):
        super().__init__(shots, client, **options)
        self.system = render(self.prompt("flat"), examples=examples(self.prompt("flat_examples"), shots))

    def system_prompts(self) -> dict[str, str]:
        return {"FLAT": self.system}

    def start(self) -> None:
        self.history: list[str] = []

    def act(self, observation: Observation) -> tuple[str, str]:
        reply = self.ask(self.system, self.state_prompt(observation, self.history), "flat")
        self.remember(self.history, reply)
        self.step_notes["stack"] = ["FLAT"]  # one policy; recorded so every method's trace has a stack
        return reply.reason, reply.action
