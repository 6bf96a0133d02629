"""Reading a run folder as it is, finished or not: its run.json (if any) and every trajectory file,
complete, crashed, still incomplete or unreadable, each with its outcome and where its page goes."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from scenarios.steps import CALL_STEPS

from ...env.recording import TRACE_NAME, screenshot_name
from ...episode.run_folder import RUN_RECORD, assets_folder, episode_of, trajectory_paths
from ...episode.trajectory import Trajectory, UnreadableTrajectory, read_trajectory
from ...json_files import read_json_object
from ..summary import played_in, shown_dimensions, summarize, task_order

OUTCOMES = ("success", "failure", "crashed", "incomplete")
END_CAUSES = ("stop", "success", "max_steps", "policy_halt", "crash", "incomplete")  # success: --protocol paper


@dataclass
class Episode:
    path: Path  # the trajectory file
    trajectory: Trajectory | None  # None when the file cannot be read
    label: str
    task: str
    seed: int
    trial: int
    outcome: str  # one of OUTCOMES
    problem: str = ""  # why the file could not be read

    @cached_property
    def data(self) -> dict:
        """The trajectory as its file holds it ({} when the file cannot be read), for the pages."""
        return self.trajectory.to_json() if self.trajectory else {}

    @property
    def complete(self) -> bool:
        return self.outcome in ("success", "failure")

    @property
    def end_cause(self) -> str:
        if self.outcome == "crashed":
            return "crash"
        if not self.complete:
            return "incomplete"
        return str((self.data.get("end") or {}).get("cause") or "stop")

    @property
    def settings(self) -> dict:
        """The result settings it was made with (model, temperature, ...); {} when not recorded."""
        return (self.trajectory.settings if self.trajectory else None) or {}

    @property
    def metrics(self) -> dict:
        return self.data.get("metrics") or {}

    @property
    def steps(self) -> list[dict]:
        return self.data.get("steps") or []

    @property
    def gold_actions(self) -> list[dict]:
        return self.trajectory.gold_actions if self.trajectory else []

    @property
    def modality(self) -> str:
        """What /evaluate scored the episode on: `ui` (page events) or `api` (the JSON API calls of a
        tool-calling method)."""
        return str(self.metrics.get("modality") or "ui")

    @property
    def gold(self) -> list[dict]:
        """The gold list that `matched` refers to: the gold calls of an API episode, else the gold steps."""
        if self.modality == "api":
            return (self.data.get("scenario") or {}).get("gold_calls") or self.metrics.get("gold_calls") or []
        return self.gold_actions

    @property
    def gold_done(self) -> list[dict]:
        """The gold steps that `num_actions` is counted against: the gold calls of an API episode, else
        the gold steps done on the page (the lines to the customer on the line are not actions)."""
        return self.gold if self.modality == "api" else [g for g in self.gold if g.get("action") not in CALL_STEPS]

    @property
    def gold_unit(self) -> str:
        return "calls" if self.modality == "api" else "steps"

    @property
    def name(self) -> str:
        return self.path.stem  # seed3-trial0

    @property
    def page(self) -> str:
        """Its page, relative to the report folder: where its trajectory is in the run folder."""
        label_folder, task_folder, _, _ = episode_of(self.path)
        return f"episodes/{label_folder}/{task_folder}/{self.name}.html"

    def screenshots(self) -> dict[int, Path]:
        """Step number -> its recorded screenshot, for the steps that have one."""
        folder = assets_folder(self.path)
        found = {}
        for number in range(1, len(self.steps) + 1):
            shot = folder / screenshot_name(number)
            if shot.exists():
                found[number] = shot
        return found

    def trace(self) -> Path | None:
        path = assets_folder(self.path) / TRACE_NAME
        return path if path.exists() else None

    def sort_key(self) -> tuple:
        return (self.label, task_order(self.task), self.seed, self.trial)


@dataclass
class Run:
    folder: Path
    provenance: dict | None  # run.json as written, None when the run has none
    provenance_problem: str
    episodes: list[Episode]
    rows: list[dict] = field(default_factory=list)  # agent.results.summary rows of the complete episodes

    @property
    def labels(self) -> list[str]:
        return sorted({e.label for e in self.episodes})

    @property
    def tasks(self) -> list[str]:
        return sorted({e.task for e in self.episodes}, key=task_order)

    def count(self, outcome: str, label: str, task: str | None = None) -> int:
        """Episodes of this outcome and label (and task, if given)."""
        return sum(1 for e in self.episodes if e.outcome == outcome and e.label == label and task in (None, e.task))


def load_run(folder: Path, by_variant: bool = False) -> Run:
    """The run in `folder`; with `by_variant`, each episode under the label of the UI and customer
    variants it was played in (summary.by_variant)."""
    provenance, problem = _read_provenance(folder / RUN_RECORD)
    episodes = [_read_episode(path) for path in trajectory_paths(folder)]
    if by_variant:
        shown = shown_dimensions([e.trajectory for e in episodes if e.trajectory is not None])
        episodes = [_in_its_variant(e, shown) for e in episodes]
    episodes = sorted(episodes, key=Episode.sort_key)
    return Run(folder, provenance, problem, episodes, summarize([e.trajectory for e in episodes if e.complete]))


def _in_its_variant(episode: Episode, shown: tuple) -> Episode:
    if episode.trajectory is None:
        return episode
    label = played_in(episode.trajectory, shown)
    return dataclasses.replace(episode, label=label, trajectory=dataclasses.replace(episode.trajectory, label=label))


def _read_provenance(path: Path) -> tuple[dict | None, str]:
    if not path.exists():
        return None, ""
    try:
        data = read_json_object(path, strict=True)
    except (OSError, ValueError) as error:
        return None, f"run.json cannot be read: {error}"
    return data, ""


def _read_episode(path: Path) -> Episode:
    """The trajectory's own identity when it has one, else what its path says."""
    try:
        trajectory = read_trajectory(path)
    except UnreadableTrajectory as error:
        label, task, seed, trial = episode_of(path)
        return Episode(path, None, label, task, seed, trial, "incomplete", str(error))
    return Episode(path, trajectory, trajectory.label, trajectory.task, trajectory.seed, trajectory.trial,
                   _outcome(trajectory))


def _outcome(trajectory: Trajectory) -> str:
    if trajectory.complete:
        return "success" if trajectory.succeeded else "failure"
    return "crashed" if trajectory.crash else "incomplete"
