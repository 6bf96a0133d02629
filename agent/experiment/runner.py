"""Running a policy on many scenarios: one trajectory per episode, resumable, in parallel.

Episode i of a task uses scenario seed `seed + i`, so every method meets the same scenarios; with
`trials` > 1 each seed is played that many times (for pass^k). `plan` makes the episode specs,
`prepare` works out once what each label's trajectories record (settings.py) and which episodes
are left (refusing a folder made with other settings), and `play` plays those on a backend
(backends/), threads sharing browsers or Ray workers, while this process, the driver, writes every
trajectory. `run_all` is the two in one.
"""
from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from ..env.modes import DEFAULT_MODES
from ..episode.run_folder import assets_folder
from ..episode.spec import EpisodeSpec
from ..episode.variants import labelled
from ..episode.trajectory import finished, write_trajectory
from ..policies import method_label, takes_shots
from .backends import play_all
from .backends.episode_worker import Outcome, WorkerConfig
from .protocols import step_limit
from .settings import differences, result_settings


class SettingsConflict(RuntimeError):
    """Finished episodes in the output folder were made with other result-changing settings."""


class RunStopped(RuntimeError):
    """The model could not be used (refused key, unknown model, endpoint down after retries):
    every further episode would fail the same way, so the run stops; finished episodes are kept."""


def episode_spec(method: str, task: str, seed: int, trial: int = 0, shots: str = "0",
                 observations: tuple[str, ...] = DEFAULT_MODES, max_steps: int | dict[str, int] = 60,
                 ui_variant: str = "", customer_variant: str = "") -> EpisodeSpec:
    """One episode, with the label it is filed under: the method's label (`flat-few-shot`), plus the
    observation modes when they are not the default and the UI and customer variants when they are
    asked for (`-ui3`, `-ui-random`, `-caller2`), so runs that see the page or hear the caller
    differently never share a folder (and the table breaks results down by them); and the task's
    action cap out of `max_steps` (one cap, or one per task)."""
    label = method_label(method, shots)
    if tuple(observations) != DEFAULT_MODES:
        label = f"{label}-{'+'.join(observations)}"
    label = labelled(label, {"ui_variant": ui_variant, "customer_variant": customer_variant})
    return EpisodeSpec(method, task, seed, trial, shots if takes_shots(method) else "", tuple(observations), label,
                       step_limit(max_steps, task), ui_variant, customer_variant)


def plan(method: str, tasks: list[str], episodes: int, seed: int = 0, trials: int = 1, shots: str = "0",
         observations: tuple[str, ...] = DEFAULT_MODES, max_steps: int | dict[str, int] = 60,
         ui_variants: tuple[str, ...] = ("",), customer_variants: tuple[str, ...] = ("",)) -> list[EpisodeSpec]:
    """Every episode of a method: per UI variant and customer variant asked for ("" for none), task,
    seed and trial."""
    return [episode_spec(method, task, seed + i, trial, shots, observations, max_steps, look, caller)
            for look in ui_variants for caller in customer_variants
            for task in tasks for i in range(episodes) for trial in range(trials)]


@dataclass(frozen=True)
class RunPlan:
    """A run about to be played into `out`: its specs, those still to play, and the result settings
    of each label (what every trajectory of the label records)."""
    specs: list[EpisodeSpec]
    todo: list[EpisodeSpec]
    out: Path
    settings: dict[str, dict]


def prepare(specs: list[EpisodeSpec], out: Path, options: dict) -> RunPlan:
    """The run of `specs` into `out` with `options` (the run's options by their command-line names,
    `max_steps` included). Raises SettingsConflict when a finished episode in `out` was made with
    other result-changing settings."""
    settings: dict[str, dict] = {}
    for spec in specs:  # once per label: synapse's reads and hashes its memory
        if spec.label not in settings:
            settings[spec.label] = result_settings(spec.method, {**options, **spec.variants()}, spec.shots)
    todo, conflicts = [], []
    for spec in specs:
        trajectory = finished(spec.path(out))
        if trajectory is None:
            todo.append(spec)
            continue
        changed = differences(trajectory.settings, settings[spec.label])
        if changed:
            conflicts.append((spec, changed))
    if conflicts:
        spec, changed = conflicts[0]
        raise SettingsConflict(
            f"{len(conflicts)} finished episode(s) in {out} were made with other settings than this run's; "
            f"{spec.path(out)} has {'; '.join(changed)}. Resume with the same settings, or use another --out.")
    return RunPlan(specs, todo, Path(out), settings)


@dataclass(frozen=True)
class Played:
    written: list[Path]  # the trajectories written, in the order they were
    crashed: list[tuple[Path, str]]  # (trajectory, reason) of those that broke off


def play(run: RunPlan, config: WorkerConfig, concurrency: int = 1, progress: bool = True,
         browsers: int | None = None, backend: str = "local", ray_address: str | None = None) -> Played:
    """Play the episodes left in `run`; what was written. `concurrency` episodes are in
    flight at once, sharing `browsers` Chromium browsers (default: as many as the backend has cores,
    at most one per episode); `backend` "ray" plays them on the Ray cluster at `ray_address`, else on
    a local Ray instance. Raises RunStopped when the model fails; what was played so far stays."""
    bar = tqdm(total=len(run.specs), initial=len(run.specs) - len(run.todo), disable=not progress, unit="ep")
    driver = Driver(run.out, run.settings, config.records, bar)
    try:
        play_all(backend, run.todo, driver, config, concurrency, browsers, ray_address)
    finally:
        bar.close()
    if driver.model_error:
        raise RunStopped(driver.model_error)
    return Played(driver.written, driver.crashed)


def run_all(specs: list[EpisodeSpec], server_url: str, out: Path, concurrency: int = 1, progress: bool = True,
            policy_options: dict | None = None, operator_token: str | None = None, recording: dict | None = None,
            env_options: dict | None = None, max_steps: int | dict[str, int] = 60, **execution) -> list[Path]:
    """prepare, then play: every spec whose trajectory is missing or incomplete. `recording`
    ({"screenshots": bool, "trace": None|"failed"|"all"}) keeps screenshots and traces next to the
    trajectories; `env_options` are the environment's (the protocol's); `max_steps` the recorded
    setting (each spec carries its own cap); `execution`: play's browsers, backend, ray_address."""
    run = prepare(specs, out, {**(policy_options or {}), "max_steps": max_steps})
    config = WorkerConfig(server_url, policy_options or {}, operator_token, recording or {}, env_options or {})
    return play(run, config, concurrency, progress, **execution).written


@dataclass
class Driver:
    """The process that writes a run's output, whichever backend plays its episodes: each episode is
    begun (earlier screenshots removed) and finished (written, counted) here."""
    out: Path
    settings: dict[str, dict]  # result settings by label
    records: bool  # screenshots or traces are kept
    bar: tqdm
    written: list = field(default_factory=list)
    crashed: list = field(default_factory=list)  # (path, reason)
    model_error: str = ""
    successes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def begin(self, spec: EpisodeSpec) -> tuple[dict, Path | None]:
        """The episode's result settings, and the folder for its screenshots and trace (if kept)."""
        folder = assets_folder(spec.path(self.out))
        shutil.rmtree(folder, ignore_errors=True)  # an earlier try's screenshots
        return self.settings[spec.label], folder if self.records else None

    def finish(self, spec: EpisodeSpec, outcome: Outcome) -> None:
        """Write an episode's outcome and count it."""
        path = spec.path(self.out)
        for name, data in outcome.files.items():
            assets_folder(path).mkdir(parents=True, exist_ok=True)
            (assets_folder(path) / name).write_bytes(data)
        write_trajectory(path, outcome.trajectory)
        if outcome.model_error:
            self.model_error = outcome.model_error
        trajectory = outcome.trajectory
        with self.lock:  # count it, and show the running success rate on the progress bar
            self.written.append(path)
            if not trajectory.complete:
                self.crashed.append((path, trajectory.crash))
            self.successes += trajectory.succeeded
            crashes = len(self.crashed)
            complete = len(self.written) - crashes
            rate = (f"success {self.successes}/{complete} ({self.successes / complete:.0%})"
                    if complete else "success -")
            self.bar.set_postfix_str(rate + (f", crashed {crashes}" if crashes else ""), refresh=False)
            self.bar.update(1)
