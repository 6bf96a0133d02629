"""`--shots auto` for webwise (WebWISE's auto-generated in-context examples): before the episodes,
`trials` zero-shot episodes per task; of the successful ones, the first two per task (in seed order)
become that task's examples, each with its task text and the filtered pages and programs that solved
it. Programs with a call that failed are left out of an example.

Under the run's output folder:
    webwise-auto/auto-trials/webwise-zero-shot/<task>/seed<S>-trial0.json   the trials (resumable)
    webwise-auto/auto-examples.json                                         the chosen examples
Every webwise-auto trajectory names the examples file and the examples it was given.
"""
from __future__ import annotations

from pathlib import Path

from ..runner import plan, run_all, write_json
from ..summary import trajectory_files
from . import method_label

TRIAL_SEED = 100_000  # trial scenarios: seeds far from the evaluation's (0, 1, ... by default)
KEEP_PER_TASK = 2


def examples_path(run_dir: str | Path) -> Path:
    return Path(run_dir) / method_label("webwise", "auto") / "auto-examples.json"


def trials_dir(run_dir: str | Path) -> Path:
    return examples_path(run_dir).parent / "auto-trials"


def prepare(tasks: list[str], server_url: str, out: Path, trials: int, concurrency: int = 1,
            max_steps: int = 60, progress: bool = True, policy_options: dict | None = None,
            operator_token: str | None = None, **execution) -> Path:
    """Run the zero-shot trials (those not already on disk) and write the chosen examples;
    `execution` is run_all's browsers, backend and ray_address."""
    specs = plan("webwise", tasks, trials, seed=TRIAL_SEED, shots="0")
    run_all(specs, server_url, trials_dir(out), concurrency, max_steps, progress, policy_options,
            operator_token=operator_token, **execution)
    played = [trajectory for _, trajectory in trajectory_files(trials_dir(out))]
    wanted = {(spec.task, spec.seed) for spec in specs}
    examples = {task: choose_examples([t for t in played if t["task"] == task and (task, t["seed"]) in wanted])
                for task in tasks}
    path = examples_path(out)
    write_json(path, {"method": "webwise", "trials_per_task": trials, "first_trial_seed": TRIAL_SEED,
                      "kept_per_task": KEEP_PER_TASK, "trials": str(trials_dir(out)), "examples": examples})
    return path


def choose_examples(trials: list[dict]) -> list[dict]:
    """Up to KEEP_PER_TASK successful trials, in seed order, as examples."""
    succeeded = sorted((t for t in trials if t["metrics"].get("success") == 1), key=lambda t: (t["seed"], t["trial"]))
    return [{"id": f"{t['task']}/seed{t['seed']}-trial{t['trial']}", "task": t["scenario"]["instruction"],
             "programs": programs_of(t)} for t in succeeded[:KEEP_PER_TASK]]


def programs_of(trajectory: dict) -> list[dict]:
    """The (filtered page, program) pairs of an episode whose calls all ran without an error."""
    failed = {step["policy"]["queued"]["reply"] for step in trajectory["steps"]
              if step.get("error") and "queued" in step.get("policy", {})}
    return [{"page": step["policy"]["page"], "program": step["policy"]["program"]}
            for step in trajectory["steps"]
            if "program" in step.get("policy", {}) and step["policy"]["queued"]["reply"] not in failed]
