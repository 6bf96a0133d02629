"""`flat`: one prompt with every instruction (and, few-shot, examples); the model answers
REASON then ACTION for each observation, seeing the task, the page and its previous actions.

With an image observation mode (`--observations som` or `screenshot`) it is the vision variant:
the page's image goes with each message (OpenAI image content parts) and the prompt
(prompts/flat_vision.txt) also offers the actions by position.
"""
from __future__ import annotations

from ..env.modes import DEFAULT_MODES, has_images, page_images
from ..env.observation import Observation
from .llm_policy import LLMPolicy
from .prompting import examples, render


class FlatPolicy(LLMPolicy):
    name = "flat"
    takes_images = True

    def __init__(self, shots: str = "0", client=None, observations=DEFAULT_MODES, **options):
        super().__init__(shots, client, observations, **options)
        self.vision = has_images(self.observations)
        prompt = "flat_vision" if self.vision else self.prompt("flat")
        self.system = render(prompt, examples=examples(f"{prompt}_examples", shots))

    def system_prompts(self) -> dict[str, str]:
        return {"FLAT": self.system}

    def start(self) -> None:
        self.history: list[str] = []

    def act(self, observation: Observation) -> tuple[str, str]:
        images = page_images(observation) if self.vision else []
        reply = self.ask(self.system, self.state_prompt(observation, self.history), "flat", images)
        self.remember(self.history, reply)
        self.step_notes["stack"] = ["FLAT"]  # one policy; recorded so every method's trace has a stack
        return reply.reason, reply.action
