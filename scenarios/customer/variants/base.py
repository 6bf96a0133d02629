"""What a customer variant is: a way of saying the plain caller's decisions (simulator.decide), and
what that changes around the call. Every variant knows and wants what the plain caller does; it
changes only how it speaks, and so perhaps the lines a careful rep needs to get the facts.

The defaults are the plain caller's (variant 0)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..facts import BY_NAME
from ..simulator import CONFIRMED, Turn, speak


def plain_says(name: str, value) -> tuple[str, ...]:
    """How the plain caller gives a fact: the one sentence the judge looks for in its lines."""
    return (BY_NAME[name].say(value),)


def confirms(text: str) -> bool:
    """Whether a customer's line confirms the details the rep read back."""
    return text.startswith(CONFIRMED)


def same_steps(steps: list[dict], details: dict, initial: dict) -> list[dict]:
    return steps


@dataclass(frozen=True)
class CustomerVariant:
    number: int
    name: str
    description: str  # what it tests, in a line
    speak: Callable[[Turn], str] = speak  # the reply, said this variant's way
    says: Callable[[str, object], tuple[str, ...]] = plain_says  # every sentence that gives a fact
    confirms: Callable[[str], bool] = confirms
    ends_call: Callable[[str], bool] = lambda text: False  # whether a reply hangs up
    # The gold steps (and gold calls) of a task for this caller, from the plain caller's; `initial`
    # is the state the scenario starts from (its bookings by code).
    gold: Callable[[list[dict], dict, dict], list[dict]] = same_steps
    gold_calls: Callable[[list[dict], dict, dict], list[dict]] = same_steps
    manner: str = ""  # how the LLM customer is told to speak ("" for the plain caller: its prompt as it was)

    def json(self) -> dict:
        return {"id": self.number, "name": self.name, "description": self.description}
