"""Running a policy on many scenarios: one JSON trajectory per episode, resumable, in parallel.

Episode i of a task uses scenario seed `seed + i`, so every method meets the same scenarios;
with `trials` > 1 each seed is played that many times (for pass^k). Every trajectory records the
settings that change its result (`settings.py`); resuming refuses to mix in other ones. The run's
protocol (`agent/protocols.py`) sets the environment (observation, suite, success-detected stop);
`max_steps` is one cap for every task or a cap per task. Where the episodes are played (threads
sharing browsers, or Ray workers) is the backends' business (agent/workers/); this process, the
driver, writes every trajectory.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from .modes import DEFAULT_MODES, modes_record
from .policies import method_label, takes_shots
from .protocols import step_limit
from .recording import assets_folder
from .settings import differences, result_settings

STEP_METRICS = ("success", "task_progress", "num_actions", "matched")  # matched: per gold step, met yet


class SettingsConflict(RuntimeError):
    """Finished episodes in the output folder were made with other result-changing settings."""


class RunStopped(RuntimeError):
    """The model could not be used (refused key, unknown model, endpoint down after retries):
    every further episode would fail the same way, so the run stops; finished episodes are kept."""


@dataclass(frozen=True)
class EpisodeSpec:
    method: str
    task: str
    seed: int
    trial: int = 0
    shots: str = "0"
    observations: tuple[str, ...] = DEFAULT_MODES

    @property
    def label(self) -> str:
        """The method's label, plus the observation modes when they are not the default
        (`flat-zero-shot-som`), so runs that see the page differently never share a folder."""
        label = method_label(self.method, self.shots)
        return label if self.observations == DEFAULT_MODES else f"{label}-{'+'.join(self.observations)}"

    def path(self, out: Path) -> Path:
        return out / self.label / self.task / f"seed{self.seed}-trial{self.trial}.json"


def plan(method: str, tasks: list[str], episodes: int, seed: int = 0, trials: int = 1,
         shots: str = "0", observations: tuple[str, ...] = DEFAULT_MODES) -> list[EpisodeSpec]:
    return [EpisodeSpec(method, task, seed + i, trial, shots, tuple(observations))
            for task in tasks for i in range(episodes) for trial in range(trials)]


def read_trajectory(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def label_settings(specs: list[EpisodeSpec], options: dict) -> dict[str, dict]:
    """The result-changing settings of each label among `specs`, worked out once per label (synapse's
    read and hash its memory)."""
    settings: dict[str, dict] = {}
    for spec in specs:
        if spec.label not in settings:
            settings[spec.label] = result_settings(spec.method, options, spec.shots)
    return settings


def pending(specs: list[EpisodeSpec], out: Path, options: dict, settings: dict | None = None) -> list[EpisodeSpec]:
    """The specs still to play. Raises SettingsConflict when a finished episode in `out` was made
    with result-changing settings other than `options` give (`settings`: label_settings of them,
    when the caller has them already)."""
    todo, conflicts = [], []
    settings = settings or label_settings(specs, options)
    for spec in specs:
        trajectory = read_trajectory(spec.path(out)) or {}
        if not trajectory.get("complete"):
            todo.append(spec)
            continue
        changed = differences(trajectory.get("settings"), settings[spec.label])
        if changed:
            conflicts.append((spec, changed))
    if conflicts:
        spec, changed = conflicts[0]
        raise SettingsConflict(
            f"{len(conflicts)} finished episode(s) in {out} were made with other settings than this run's; "
            f"{spec.path(out)} has {'; '.join(changed)}. Resume with the same settings, or use another --out.")
    return todo


def run_episode(env, policy, spec: EpisodeSpec, max_steps: int | dict[str, int],
                settings: dict | None = None) -> dict:
    """One episode of `policy` in `env` (a CrmEnv, or an ApiEnv for a method working the API)."""
    started, start_time = time.perf_counter(), _now()
    env.max_steps = cap = step_limit(max_steps, spec.task)
    obs, info = env.reset(task=spec.task, seed=spec.seed)
    scenario = info["scenario"]
    policy.reset(scenario)
    steps, answer, spent, metrics = [], None, {}, info["metrics"]
    cause = {"cause": "max_steps", "detail": "the step limit was reached"}
    for _ in range(cap):
        clock = time.perf_counter()
        reason, action = policy.act(obs)
        policy_ms = round((time.perf_counter() - clock) * 1000, 2)
        usage = policy.usage()
        record = {"observation": obs.text, "url": obs.url, "reason": reason, "action": action,
                  "tokens": {"observation": obs.tokens, **_delta(usage, spent)}}
        record.update(_policy_trace(policy))
        if set(obs.modes) - {"elements"}:
            record["modes"] = modes_record(obs)
        spent = usage
        obs, _reward, terminated, truncated, step_info = env.step(action)
        record.update(error=step_info["error"], timings={"policy_ms": policy_ms, **step_info["timings"]},
                      metrics={k: step_info["metrics"].get(k) for k in STEP_METRICS})
        if "result" in step_info:  # what a tool call got (the API environment)
            record["result"] = step_info["result"]
        steps.append(record)
        metrics = step_info["metrics"]  # evaluated after the step; nothing happens on the page later
        if terminated or truncated:
            answer = step_info["answer"]
            cause = _end_cause(record, terminated, step_info["succeeded"])
            break
    return {
        **_identity(spec, settings),
        "scenario": {k: scenario.get(k) for k in ("id", "scenario", "instruction", "conversation", "details",
                                                   "gold_actions", "gold_calls")},
        "reset_timings": info["timings"], "steps": steps, "answer": answer,
        "final_observation": obs.text, "metrics": metrics, "agent_actions": _agent_actions(steps, cause),
        "usage": spent, "end": cause, **_policy_context(policy),
        "started": start_time, "seconds": round(time.perf_counter() - started, 3), "complete": True,
    }


def crash_record(spec: EpisodeSpec, settings: dict | None, reason: str) -> dict:
    """The trajectory of an episode that broke off: incomplete, with the reason (retried on resume)."""
    return {**_identity(spec, settings), "complete": False, "crash": reason}


def _identity(spec: EpisodeSpec, settings: dict | None) -> dict:
    shots = spec.shots if takes_shots(spec.method) else ""  # the oracle has no prompts
    return {"method": spec.method, "shots": shots, "label": spec.label, "task": spec.task,
            "seed": spec.seed, "trial": spec.trial, "observations": list(spec.observations), "settings": settings}


def _policy_trace(policy) -> dict:
    """What an LLM policy reports about its last step (prompt size, calls, stack); {} otherwise."""
    trace = getattr(policy, "trace", None)
    return {"policy": trace()} if callable(trace) else {}


def _policy_context(policy) -> dict:
    """What the policy brought into the episode (retrieved exemplars, example files); {} otherwise."""
    context = getattr(policy, "episode_context", None)
    return {"policy_context": context()} if callable(context) else {}


def _end_cause(record: dict, terminated: bool, succeeded: bool = False) -> dict:
    """Why the episode ended: the agent stopped (or its policy halted itself), the server reported
    success after the action (a protocol that stops on success), or the step limit."""
    halt = record.get("policy", {}).get("halt")
    if succeeded:
        return {"cause": "success", "detail": f"/evaluate reported success after {record['action']}"}
    if terminated:
        return {"cause": "policy_halt", "detail": halt} if halt else {"cause": "stop", "detail": record["action"]}
    detail = record["error"] or record.get("policy", {}).get("reply_problem")
    return {"cause": "max_steps", "detail": f"last error: {detail}" if detail else "the step limit was reached"}


def _agent_actions(steps: list[dict], cause: dict) -> int:
    """The agent's actions, invalid ones included; a closing STOP (or policy halt) is not one."""
    return len(steps) - (cause["cause"] in ("stop", "policy_halt"))


def write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(f".tmp{os.getpid()}-{threading.get_ident()}")
    temporary.write_text(json.dumps(data, indent=1))
    temporary.replace(path)


def run_all(specs: list[EpisodeSpec], server_url: str, out: Path, concurrency: int = 1,
            max_steps: int | dict[str, int] = 60, progress: bool = True, policy_options: dict | None = None,
            operator_token: str | None = None, recording: dict | None = None, browsers: int | None = None,
            backend: str = "local", ray_address: str | None = None) -> list[Path]:
    """Play every spec whose trajectory is missing or incomplete; return the paths written.
    `concurrency` episodes are in flight at once, sharing `browsers` Chromium browsers (default: as
    many as the backend has cores, at most one per episode); `backend` "ray" plays them on the Ray
    cluster at `ray_address`, else on a local Ray instance (agent/workers/). Whichever backend plays
    them, this process writes the trajectories.
    `recording` ({"screenshots": bool, "trace": None|"failed"|"all"}) keeps screenshots and traces
    next to the trajectories (agent/recording.py).
    Raises SettingsConflict before playing when `out` holds finished episodes made with other
    settings, and RunStopped when the model fails; what was played so far stays on disk."""
    from .workers import play_all  # the workers play episodes with run_episode, defined here
    from .workers.episode_worker import WorkerConfig

    options = {**(policy_options or {}), "max_steps": max_steps}
    settings = label_settings(specs, options)
    todo = pending(specs, out, options, settings)
    config = WorkerConfig(server_url, max_steps, policy_options or {}, operator_token, recording or {})
    driver = Driver(out, options, config.records,
                    tqdm(total=len(specs), initial=len(specs) - len(todo), disable=not progress, unit="ep"),
                    settings=settings)
    try:
        play_all(backend, todo, driver, config, concurrency, browsers, ray_address)
    finally:
        driver.bar.close()
    if driver.model_error:
        raise RunStopped(driver.model_error)
    return driver.written


@dataclass
class Driver:
    """The process that writes a run's output, whichever backend plays its episodes: each episode is
    begun (earlier screenshots removed, its settings fixed) and finished (written, counted) here."""
    out: Path
    options: dict  # every option, for the result-changing settings each trajectory records
    records: bool  # screenshots or traces are kept
    bar: tqdm
    written: list = field(default_factory=list)
    model_error: str = ""
    played: int = 0
    successes: int = 0
    crashes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    settings: dict = field(default_factory=dict)  # by label (label_settings), else made on first use

    def begin(self, spec: EpisodeSpec) -> tuple[dict, Path | None]:
        """The episode's result settings, and the folder for its screenshots and trace (if kept)."""
        folder = assets_folder(spec.path(self.out))
        shutil.rmtree(folder, ignore_errors=True)  # an earlier try's screenshots
        with self.lock:
            if spec.label not in self.settings:
                self.settings.update(label_settings([spec], self.options))
            settings = self.settings[spec.label]
        return settings, folder if self.records else None

    def finish(self, spec: EpisodeSpec, outcome) -> None:
        """Write an episode's outcome (agent.workers.episode_worker.Outcome) and count it."""
        path = spec.path(self.out)
        for name, data in outcome.files.items():
            assets_folder(path).mkdir(parents=True, exist_ok=True)
            (assets_folder(path) / name).write_bytes(data)
        write_json(path, outcome.trajectory)
        if outcome.model_error:
            self.model_error = outcome.model_error
        self.done(path, outcome.trajectory)

    def done(self, path: Path, trajectory: dict) -> None:
        """Count a written episode and show the running success rate on the progress bar."""
        with self.lock:
            self.written.append(path)
            self.played += 1
            self.crashes += not trajectory["complete"]
            self.successes += int(bool((trajectory.get("metrics") or {}).get("success")))
            finished = self.played - self.crashes
            rate = f"success {self.successes}/{finished} ({self.successes / finished:.0%})" if finished else "success -"
            self.bar.set_postfix_str(rate + (f", crashed {self.crashes}" if self.crashes else ""), refresh=False)
            self.bar.update(1)


def _delta(usage: dict, before: dict) -> dict:
    return {key: value - before.get(key, 0) for key, value in usage.items()}


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")
