"""`step` (SteP): a stack of policies. The policy on top sees the page and its own history and
either acts on the page, calls a policy from the library (pushed with its own argument and an
empty history), or returns a value (popped; the value goes into its caller's history). Any policy
may call any other, itself included. Depth and per-step call limits stop runaway stacks."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..env.observation import Observation
from .llm_policy import LLMPolicy
from .prompting import examples, load_prompt, render, task_text
from .reply import split_call

ROOT = "CRM"
LIBRARY = ("CRM", "FIND_BOOKING", "SEARCH_FLIGHT", "SELECT_FLIGHT", "PASSENGER_DETAILS", "PAYMENT",
           "FILL_TEXT", "CHOOSE_DATE", "CANCEL_BOOKING")
RETURNS = ("RETURN", "STOP")


@dataclass
class Frame:
    name: str
    argument: str
    history: list[str] = field(default_factory=list)

    def label(self) -> str:
        """The call as the policy's prompt and the trajectory's stack show it; the argument is
        never shortened: it carries every value the job needs."""
        return f"{self.name} [{self.argument}]"


class StepPolicy(LLMPolicy):
    name = "step"
    library = LIBRARY

    def __init__(self, shots: str = "0", client=None, max_depth: int = 5, max_calls_per_step: int = 8, **options):
        super().__init__(shots, client, **options)
        self.max_depth = max_depth
        self.max_calls_per_step = max_calls_per_step
        folder = self.prompt("step")
        catalogue = "\n".join(f"- {name} [argument]: {purpose(name, folder)}" for name in self.library)
        self.systems = {name: system_prompt(name, catalogue, shots, folder) for name in self.library}

    def system_prompts(self) -> dict[str, str]:
        return dict(self.systems)

    def start(self) -> None:
        self.stack = [Frame(ROOT, task_text(self.scenario))]

    def act(self, observation: Observation) -> tuple[str, str]:
        for _ in range(self.max_calls_per_step):
            frame = self.stack[-1]
            reply = self.ask(self.systems[frame.name], self._state(observation, frame), frame.name)
            word, argument = split_call(reply.action)
            if word == "CALL":
                halt = self._push(argument, frame)
            elif word in RETURNS:
                halt = None
                if len(self.stack) == 1:
                    return self._finish(reply.reason, f"STOP [{argument}]")
                self._pop(argument)
            else:
                self.remember(frame.history, reply)
                return self._finish(reply.reason, reply.action)
            if halt:
                return self._halt(halt)
        return self._halt(f"{self.max_calls_per_step} model calls in one step without a page action")

    def _state(self, observation: Observation, frame: Frame) -> str:
        return self.state_prompt(observation, frame.history, frame.label() if frame.name != ROOT else None)

    def _push(self, call: str, caller: Frame) -> str | None:
        name, argument = split_call(call)
        if name not in self.systems:
            caller.history.append(f"CALL {call} (error: there is no policy {name}; known: {', '.join(self.library)})")
            return None
        if len(self.stack) >= self.max_depth:
            return f"policy stack deeper than {self.max_depth} (calling {name} from {caller.name})"
        caller.history.append(f"CALL {name} [{argument}]")
        self.stack.append(Frame(name, argument))
        return None

    def _pop(self, value: str) -> None:
        done = self.stack.pop()
        self.stack[-1].history.append(f"{done.name} returned: {value or '(nothing)'}")

    def _finish(self, reason: str, action: str) -> tuple[str, str]:
        self.step_notes["stack"] = [frame.label() for frame in self.stack]
        return reason, action

    def _halt(self, why: str) -> tuple[str, str]:
        self.step_notes["halt"] = why
        return self._finish(f"Stopped by the policy stack: {why}.", f"STOP [halted: {why}]")


def purpose(name: str, folder: str = "step") -> str:
    """A policy's one-line purpose: the first line of agent/policies/prompts/<folder>/<name>.txt."""
    return load_prompt(f"{folder}/{name.lower()}").splitlines()[0].removeprefix("PURPOSE:").strip()


def system_prompt(name: str, catalogue: str, shots: str, folder: str = "step") -> str:
    body = load_prompt(f"{folder}/{name.lower()}").split("\n", 1)[1].strip()
    return render(f"{folder}/base", policy=name, purpose=purpose(name, folder), instructions=body, library=catalogue,
                  examples=examples(f"{folder}/{name.lower()}_examples", shots))
