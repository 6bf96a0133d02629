"""When an episode ends, the one rule both environments (browser and API) follow after each step."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StepEnd:
    terminated: bool  # the agent stopped, or the server reported success under a success-detected stop
    truncated: bool  # the step cap was reached first
    succeeded: bool  # ended by the success-detected stop
    reward: float  # /evaluate's success on the step that ends the episode by termination, else 0

    @property
    def over(self) -> bool:
        return self.terminated or self.truncated


def step_end(stopped: bool, metrics: dict, steps: int, max_steps: int, stop_on_success: bool) -> StepEnd:
    """`stopped`: the step was STOP; `metrics`: /evaluate's answer after it; `steps`: taken so far."""
    succeeded = stop_on_success and not stopped and bool(metrics.get("success"))
    terminated = stopped or succeeded
    truncated = not terminated and steps >= max_steps
    reward = float(metrics.get("success", 0)) if terminated else 0.0
    return StepEnd(terminated, truncated, succeeded, reward)
