"""The policy contract: what the episode loop (play.py) asks of every method.

A policy starts on a scenario, then answers each observation with a reason and an action text (the
browser's action grammar, agent/env/actions.py, or a tool call for the API environment). The rest
has defaults: a policy without a model spends nothing; one that reports nothing about its steps or
what it brought into the episode leaves those parts of the trajectory out.

What `reset` is given is what an agent may see (`agent_view`): the scenario's id and url, the
instruction (the hard suite's briefing), the conversation (the hard suite: the customer's opening
line), the UI variant when one was asked for, the task's name where the suite tells it (not the
hard suite), and the action set. The gold steps and calls and the details the customer or the
server keeps hidden go to a policy whose class opts in with `needs_gold = True` (the oracle's), and
to none other. Class attributes the run reads: `environment` ("browser", or "api" for a policy of
tool calls), `takes_shots` and `shot_settings` (its --shots), `uses_model` (--model and
--temperature are recorded with its runs), `needs_gold`.
"""
from __future__ import annotations

from scenarios.suites import SUITES

SEEN = ("id", "url", "instruction", "conversation", "ui_variant")  # what any agent is told
TOLD_UNLESS_HIDDEN = ("scenario",)  # the task's name, where the suite does not hide it (not the hard suite)


def agent_view(scenario: dict, suite: str | None, action_set) -> dict:
    """What a policy without `needs_gold` is given: the SEEN fields of `scenario`, the task's name in a
    suite that shows it (an unknown suite, None, shows none), and `actions`, the environment's action
    set (the browser's action grammar as text, or the API environment's tool definitions)."""
    shown = SEEN + (TOLD_UNLESS_HIDDEN if suite in SUITES and not SUITES[suite].hidden_details else ())
    return {**{key: scenario[key] for key in shown if key in scenario}, "actions": action_set}


class Policy:
    name: str = ""
    needs_gold: bool = False  # the oracle's opt-in to the whole scenario: gold steps and calls, hidden details
    action_space: str = "elements"  # what its actions are: "elements" (by id), or "coordinates" (by position)

    def reset(self, scenario: dict) -> None:
        """Start an episode; `scenario` is what an agent may see of it (agent_view), or, with
        `needs_gold`, the whole /generate-random-scenario answer with the gold steps and calls."""
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
