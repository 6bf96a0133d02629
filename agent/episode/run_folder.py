"""The layout of a run's output folder, named in one place:

    OUT/run.json                                     the run's record (agent/experiment/run_record.py)
    OUT/summary.csv                                  the table (agent/results/summary.py)
    OUT/episodes.csv                                 one row per finished episode (same module)
    OUT/report/index.html                            the HTML report (agent/results/report/)
    OUT/<label>/<task>/seed<S>-trial<T>.json         one episode's trajectory (trajectory.py)
    OUT/<label>/<task>/seed<S>-trial<T>/             its screenshots and trace (agent/env/recording.py)
    OUT/webwise-auto/auto-trials/...                 `--shots auto`: the trials its examples come from
    OUT/webwise-auto/auto-examples.json              ... and the examples chosen from them
"""
from __future__ import annotations

import re
from pathlib import Path

RUN_RECORD = "run.json"
SUMMARY_CSV = "summary.csv"
SUMMARY_BY_VARIANT_CSV = "summary-by-variant.csv"  # `summarize --by-variant`
EPISODES_CSV = "episodes.csv"
REPORT = "report"
AUTO_TRIALS = "auto-trials"
AUTO_EXAMPLES = "auto-examples.json"
_EPISODE_NAME = re.compile(r"seed(-?\d+)-trial(\d+)$")


def trajectory_path(out: Path, label: str, task: str, seed: int, trial: int) -> Path:
    return Path(out) / label / task / f"seed{seed}-trial{trial}.json"


def trajectory_paths(out: Path) -> list[Path]:
    """Every trajectory file under `out`, in path order."""
    return sorted(Path(out).glob("*/*/*.json"))


def episode_of(path: Path) -> tuple[str, str, int, int]:
    """(label, task, seed, trial) as a trajectory's path names them (seed and trial 0 when the
    file name is not seed<S>-trial<T>.json)."""
    found = _EPISODE_NAME.match(path.stem)
    seed, trial = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
    return path.parent.parent.name, path.parent.name, seed, trial


def assets_folder(trajectory: Path) -> Path:
    """Where an episode's screenshots and trace are kept: beside its trajectory, named after it."""
    return trajectory.with_suffix("")


def auto_examples(out: Path, label: str) -> Path:
    """The examples file of a `--shots auto` method of this label (webwise-auto)."""
    return Path(out) / label / AUTO_EXAMPLES


def auto_trials(out: Path, label: str) -> Path:
    """The folder (a run folder of its own) of the trials those examples are chosen from."""
    return Path(out) / label / AUTO_TRIALS
