"""The trajectory: what one episode leaves behind, as one JSON file (run_folder.trajectory_path).

`Trajectory` is the record; `to_json` is its file format and `from_json` reads it back, older files
(with fewer fields) included. `write_trajectory` and `read_trajectory` are the one writer and the
one reader; `trajectories` reads a whole run folder. An episode that broke off is recorded as
incomplete with its `crash` reason and nothing else, and is played again on resume.

Each of `steps` is one action: the observation the policy saw (`observation`, `url`), its `reason`
and `action`, what the step cost (`tokens`, `timings`), the `error` of an action that could not be
carried out, the server's `metrics` after it, and, from some policies and environments, `policy`
(its trace), `modes` (the other observation modes) and `result` (a tool call's answer).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

from ..json_files import read_json_object, write_json
from .run_folder import episode_of, trajectory_paths

IDENTITY = ("method", "shots", "label", "task", "seed", "trial", "observations", "settings")


class UnreadableTrajectory(ValueError):
    """A trajectory file that cannot be read (it may still be being written)."""


@dataclass
class Trajectory:
    # which episode: its method, shots ("" for a method without prompts), label, task and scenario seed
    method: str
    shots: str
    label: str
    task: str
    seed: int
    trial: int = 0
    observations: list[str] = field(default_factory=lambda: ["elements"])
    settings: dict | None = None  # agent/experiment/settings.py: what else its result depends on
    complete: bool = False
    crash: str | None = None  # why an incomplete episode broke off
    # what happened, in a complete episode
    scenario: dict = field(default_factory=dict)  # id, instruction, conversation, details, gold steps
    reset_timings: dict = field(default_factory=dict)
    steps: list[dict] = field(default_factory=list)
    answer: str | None = None  # STOP's answer
    final_observation: str = ""
    metrics: dict = field(default_factory=dict)  # /evaluate's answer after the last step
    agent_actions: int = 0  # the agent's actions, invalid ones included; a closing STOP is not one
    usage: dict = field(default_factory=dict)  # the model's tokens and calls
    end: dict = field(default_factory=dict)  # {"cause": stop|success|max_steps|policy_halt, "detail"}
    policy_context: dict | None = None  # what the policy brought in (exemplars, example files)
    started: str | None = None
    seconds: float = 0.0
    # A person's play (agent/play/) only: who played ({"name", "consent"}) and the call line by line with
    # the time the server received each line; an agent's replies from the customer are on its steps.
    person: dict | None = None
    call: list[dict] | None = None

    @property
    def succeeded(self) -> bool:
        return self.complete and bool(self.metrics.get("success"))

    @property
    def gold_actions(self) -> list[dict]:
        return self.scenario.get("gold_actions") or self.metrics.get("gold_actions") or []

    def to_json(self) -> dict:
        if not self.complete:
            return {**self._identity(), "complete": False, "crash": self.crash}
        data = {name: getattr(self, name) for name in _FIELDS if name not in ("crash", *_ONLY_WHEN_SET)}
        data.update({name: getattr(self, name) for name in _ONLY_WHEN_SET if getattr(self, name) is not None})
        return {**{key: data.pop(key) for key in IDENTITY}, **data}

    @classmethod
    def from_json(cls, data: dict, path: Path | None = None) -> Trajectory:
        """The record of a trajectory file's object; what an older file lacks comes from its `path`
        (label, task, seed, trial) or the defaults."""
        label, task, seed, trial = episode_of(path) if path else ("", "", 0, 0)
        known = {key: value for key, value in data.items() if key in _FIELDS and value is not None}
        method = str(data.get("method") or label)
        return cls(**{**known, "method": method, "label": str(data.get("label") or method),
                      "task": str(data.get("task") or task), "seed": int(data.get("seed", seed)),
                      "trial": int(data.get("trial", trial)), "complete": bool(data.get("complete")),
                      "settings": data.get("settings"), "shots": str(data.get("shots") or "")})

    def _identity(self) -> dict:
        return {key: getattr(self, key) for key in IDENTITY}


_FIELDS = tuple(f.name for f in fields(Trajectory))
_ONLY_WHEN_SET = ("policy_context", "person", "call")  # left out of the file when None


def write_trajectory(path: Path, trajectory: Trajectory) -> None:
    write_json(path, trajectory.to_json())


def read_trajectory(path: Path) -> Trajectory:
    """The trajectory in `path`; UnreadableTrajectory saying why when there is none to read."""
    try:
        data = read_json_object(path, strict=True)
    except (OSError, ValueError) as error:
        raise UnreadableTrajectory(f"the file cannot be read ({error}); it may still be being written") from None
    return Trajectory.from_json(data, path)


def finished(path: Path) -> Trajectory | None:
    """The complete trajectory in `path`, or None (missing, unreadable, crashed, interrupted)."""
    try:
        trajectory = read_trajectory(path)
    except UnreadableTrajectory:
        return None
    return trajectory if trajectory.complete else None


def trajectories(out: Path) -> list[tuple[Path, Trajectory]]:
    """(file, trajectory) of every readable trajectory under the run folder `out`, finished or not."""
    found = []
    for path in trajectory_paths(out):
        try:
            found.append((path, read_trajectory(path)))
        except UnreadableTrajectory:
            continue
    return found
