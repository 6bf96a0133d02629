"""The policy contract: what the episode loop (play.py) asks of every method.

A policy starts on a scenario, then answers each observation with a reason and an action text (the
browser's action grammar, agent/env/actions.py, or a tool call for the API environment). The rest
has defaults: a policy without a model spends nothing; one that reports nothing about its steps or
what it brought into the episode leaves those parts of the trajectory out.
"""
from __future__ import annotations


class Policy:
    name: str = ""
    action_space: str = "elements"  # what its actions are: "elements" (by id), or "coordinates" (by position)

    def reset(self, scenario: dict) -> None:
        """Start an episode; `scenario` is the /generate-random-scenario answer (instruction,
        conversation, details) with the gold steps and calls."""
        raise NotImplementedError

    def act(self, observation) -> tuple[str, str]:
        """The reason and the action text for this observation (agent/env/observation.Observation,
        or agent/env/api_env.ToolObservation)."""
        raise NotImplementedError

    def usage(self) -> dict:
        """The model's tokens and calls since reset; empty for a policy without a model."""
        return {}

    def trace(self) -> dict | None:
        """What the policy reports about its last step (prompt size, calls, stack, a halt), kept
        with the step as `policy`; None when it reports nothing."""
        return None

    def episode_context(self) -> dict | None:
        """What the policy brought into the episode (retrieved exemplars, example files), kept as
        the trajectory's `policy_context`; None when nothing."""
        return None
