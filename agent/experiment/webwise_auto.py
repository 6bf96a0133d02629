"""`--shots auto` for webwise (WebWISE's auto-generated in-context examples): before the episodes,
`trials` zero-shot episodes per task; of the successful ones, the first two per task (in seed order)
become that task's examples, each with its task text and the filtered pages and programs that solved
it. Programs with a call that failed are left out of an example.

Under the run's output folder (agent/episode/run_folder.py):
    webwise-auto/auto-trials/webwise-zero-shot/<task>/seed<S>-trial0.json   the trials (resumable)
    webwise-auto/auto-examples.json                                         the chosen examples
The policy is handed the examples file (option `auto_examples`); every webwise-auto trajectory names
the examples it was given.
"""
from __future__ import annotations

from pathlib import Path

from ..episode import run_folder
from ..episode.trajectory import Trajectory, trajectories
from ..json_files import write_json
from ..policies import method_label
from .runner import plan, run_all

TRIAL_SEED = 100_000  # trial scenarios: seeds far from the evaluation's (0, 1, ... by default)
KEEP_PER_TASK = 2
LABEL = method_label("webwise", "auto")


def examples_path(out: str | Path) -> Path:
    return run_folder.auto_examples(Path(out), LABEL)


def trials_dir(out: str | Path) -> Path:
    return run_folder.auto_trials(Path(out), LABEL)


def prepare(tasks: list[str], server_url: str, out: Path, trials: int, concurrency: int = 1,
            max_steps: int | dict[str, int] = 60, progress: bool = True, policy_options: dict | None = None,
            operator_token: str | None = None, env_options: dict | None = None, **execution) -> Path:
    """Run the zero-shot trials (those not already on disk) and write the chosen examples;
    `execution` is play's browsers, backend and ray_address."""
    specs = plan("webwise", tasks, trials, seed=TRIAL_SEED, shots="0", max_steps=max_steps)
    run_all(specs, server_url, trials_dir(out), concurrency, progress, policy_options, operator_token,
            env_options=env_options, max_steps=max_steps, **execution)
    wanted = {(spec.task, spec.seed) for spec in specs}
    played = [t for _, t in trajectories(trials_dir(out)) if t.complete and (t.task, t.seed) in wanted]
    examples = {task: choose_examples([t for t in played if t.task == task]) for task in tasks}
    path = examples_path(out)
    write_json(path, {"method": "webwise", "trials_per_task": trials, "first_trial_seed": TRIAL_SEED,
                      "kept_per_task": KEEP_PER_TASK, "trials": str(trials_dir(out)), "examples": examples})
    return path


def choose_examples(trials: list[Trajectory]) -> list[dict]:
    """Up to KEEP_PER_TASK successful trials, in seed order, as examples."""
    succeeded = sorted((t for t in trials if t.metrics.get("success") == 1), key=lambda t: (t.seed, t.trial))
    return [{"id": f"{t.task}/seed{t.seed}-trial{t.trial}", "task": t.scenario["instruction"],
             "programs": programs_of(t)} for t in succeeded[:KEEP_PER_TASK]]


def programs_of(trajectory: Trajectory) -> list[dict]:
    """The (filtered page, program) pairs of an episode whose calls all ran without an error."""
    failed = {step["policy"]["queued"]["reply"] for step in trajectory.steps
              if step.get("error") and "queued" in step.get("policy", {})}
    return [{"page": step["policy"]["page"], "program": step["policy"]["program"]}
            for step in trajectory.steps
            if "program" in step.get("policy", {}) and step["policy"]["queued"]["reply"] not in failed]
