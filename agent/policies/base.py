"""What every policy offers the runner: start on a scenario, then one action per observation."""
from __future__ import annotations

from typing import Protocol

from ..observation import Observation


class Policy(Protocol):
    name: str

    def reset(self, scenario: dict) -> None:
        """Start an episode; `scenario` is the /generate-random-scenario answer (instruction,
        conversation, details and gold_actions)."""

    def act(self, observation: Observation) -> tuple[str, str]:
        """The reason and the action text (in the action grammar) for this observation."""

    def usage(self) -> dict:
        """Tokens spent since reset (prompt, completion); empty for policies without a model."""
