"""From trajectory files to exemplars: the successful episodes of a run, each cut into turns.

A turn is one page and the actions taken on it before the page changes: it ends after a click on a
button or a link (a submit, a navigation, a dialog), or after an action that failed. Filling fields
and choosing radios stay in the turn. This is where Synapse lets one model call answer several
actions, so stored exemplars show the model how far to go before it needs to see the page again.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from ...env.actions import ActionError, parse_action
from ...env.executor import resolve
from ...env.observation import parse_observation, without_error_line
from ...episode.trajectory import trajectories

PAGE_CHANGING_KINDS = {"button", "link"}


@dataclass
class Turn:
    page: str  # the raw observation the turn started on
    actions: list[str]
    state: str = ""  # its abstraction, filled in when the memory is built


@dataclass
class Exemplar:
    id: str
    task_type: str  # the scenario's task, e.g. TASK_CANCEL_FLIGHT
    task: str  # the instruction
    source: str  # the trajectory file it was made from
    turns: list[Turn] = field(default_factory=list)

    @property
    def key(self) -> str:
        """What the memory is keyed by: the task text and the first page's (abstracted) state."""
        return memory_key(self.task, self.turns[0].state if self.turns else "")

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Exemplar:
        return cls(data["id"], data["task_type"], data["task"], data["source"],
                   [Turn(**turn) for turn in data["turns"]])


def memory_key(task: str, first_state: str) -> str:
    return f"{task.strip()}\n{first_state.strip()}"


def successful_episodes(run_dir: Path) -> list[Exemplar]:
    """Every complete, successful episode under `run_dir` (any method, the oracle's included) as an
    exemplar whose turns are not abstracted yet."""
    found = []
    for path, trajectory in trajectories(Path(run_dir)):
        if not trajectory.complete or trajectory.metrics.get("success") != 1 or not trajectory.steps:
            continue
        episode = path.relative_to(run_dir).with_suffix("")
        found.append(Exemplar(f"{Path(run_dir).name}/{episode}", trajectory.task,
                              str(trajectory.scenario.get("instruction") or "").strip(), str(path),
                              split_turns(trajectory.steps)))
    return found


def split_turns(steps: list[dict]) -> list[Turn]:
    """The steps (observation, action, error) grouped into turns; see the module's docstring."""
    turns: list[Turn] = []
    open_turn = False
    for step in steps:
        if not open_turn:
            turns.append(Turn(without_error_line(step["observation"]), []))
        turns[-1].actions.append(step["action"])
        open_turn = not (step.get("error") or _changes_page(step["action"], step["observation"]))
    return turns


def _changes_page(action_text: str, observation: str) -> bool:
    try:
        action = parse_action(action_text)
        if action.name != "click":
            return action.name == "stop"
        return resolve(action, parse_observation(observation))["kind"] in PAGE_CHANGING_KINDS
    except ActionError:
        return True

