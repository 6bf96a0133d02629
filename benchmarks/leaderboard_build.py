"""How long `python -m agent leaderboard` takes for 50 runs of 600 episodes each.

    .venv/bin/python benchmarks/leaderboard_build.py [--runs 50] [--builds 3]

Each run is synthetic (tests/agent/synthetic_runs.py: one LLM-style label x 6 tasks x 100 seeds,
every step with a model call, its prompt and reply, like a real flat run's trajectory; a different
random seed per run), summarized as `run` leaves it (`summarize` writes its episodes.csv): it tests
the leaderboard, it is no model's result. A build reads every run (its episodes.csv, which is newer
than its trajectories), computes the summaries and intervals, and writes the page and its CSV, in
a process of its own as a user runs it, imports included. Target: < 10 s. `--stale` leaves the
episodes.csv files out, so that every trajectory is read instead.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.__main__ import main as agent  # noqa: E402
from tests.agent.synthetic_runs import write_run  # noqa: E402

TARGET_S = 10.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--builds", type=int, default=3)
    parser.add_argument("--stale", action="store_true", help="no episodes.csv: read every trajectory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="leaderboard-bench-") as folder:
        runs = [Path(folder) / f"run{number:02d}" for number in range(args.runs)]
        episodes = sum(len(write_run(run, labels=("flat-zero-shot",), seeds=100, seed=number, broken=False))
                       for number, run in enumerate(runs))
        for run in runs:
            with contextlib.redirect_stdout(io.StringIO()):
                agent(["summarize", "--out", str(run)])
            if args.stale:
                (run / "episodes.csv").unlink()
        size = sum(p.stat().st_size for p in Path(folder).rglob("*.json")) / 1e6
        print(f"{args.runs} runs, {episodes} synthetic episodes, {size:.0f} MB of trajectories")
        command = [sys.executable, "-m", "agent", "leaderboard", *map(str, runs), "--out", str(Path(folder) / "board")]
        seconds = [_timed(command) for _ in range(args.builds)]
    median = statistics.median(seconds)
    print(f"build the leaderboard: median {median:.2f} s over {len(seconds)} (target < {TARGET_S:.0f} s, "
          f"{median / TARGET_S:.2f} of it); all: {', '.join(f'{s:.2f}' for s in seconds)}")


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
