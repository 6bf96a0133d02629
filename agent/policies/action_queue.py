"""Several page actions from one model call, handed to the episode loop one step at a time.

Synapse may answer several actions for one state and WebWISE writes a program of several calls;
the episode loop asks the policy for one action per observation. The environment reports a failed action
at the top of the next observation (`observation.error`); the actions queued after it are then
dropped, so the model sees the error and decides again.
"""
from __future__ import annotations

from ..env.observation import Observation


class ActionQueue:
    def __init__(self):
        self.clear()

    def clear(self) -> None:
        self._pending: list[str] = []
        self._batch = 0  # how many loads so far, to say which reply an action came from
        self._size = 0

    def __bool__(self) -> bool:
        return bool(self._pending)

    def load(self, actions: list[str]) -> None:
        self._pending = list(actions)
        self._batch += 1
        self._size = len(actions)

    def pop(self) -> tuple[str, dict]:
        """The next action and where it stands: {"reply": n, "index": i, "of": k} (1-based)."""
        action = self._pending.pop(0)
        return action, {"reply": self._batch, "index": self._size - len(self._pending), "of": self._size}

    def cut_on_error(self, observation: Observation) -> dict | None:
        """When the last action failed, drop the rest; the cut, for the trajectory, or None."""
        if not observation.error or not self._pending:
            return None
        dropped, self._pending = self._pending, []
        return {"error": observation.error, "dropped": dropped}
