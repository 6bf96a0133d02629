"""What each observation mode costs per step, and how big it is, on the CRM's real pages.

    .venv/bin/python benchmarks/observation_modes.py [--episodes 2]

The oracle plays every task with every mode asked for; each step's timings say how long each mode
took (agent/env/modes/: the element list is extracted at every step whatever the modes, so its cost is
the observation's `observe_ms`; the others are timed one by one, `som` drawing on the screenshot
taken for `screenshot`). Sizes: text modes in tokens (characters / 4), images in PNG kilobytes.
Embedded server on a temporary SQLite file; medians and 90th percentiles in milliseconds.
"""
from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.env.browser_env import CrmEnv  # noqa: E402
from agent.env.modes import IMAGE, modes  # noqa: E402
from agent.env.observation import count_tokens  # noqa: E402
from agent.policies import make_policy  # noqa: E402
from scenarios.tasks import TASK_NAMES  # noqa: E402
from scenarios.app import embedded_server  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


def size(mode: str, value) -> float:
    return round(len(value) / 1024, 1) if modes()[mode].kind == IMAGE else count_tokens(value)


def measure(env: CrmEnv, episodes: int) -> tuple[dict, dict, list]:
    """Milliseconds and sizes per mode over every oracle step, and each step's whole time."""
    times, sizes, steps = defaultdict(list), defaultdict(list), []
    for task, seed in itertools.product(TASK_NAMES, range(episodes)):
        obs, info = env.reset(task=task, seed=seed)
        oracle = make_policy("oracle")
        oracle.reset(info["scenario"])
        for _ in range(60):
            obs, _, terminated, truncated, step = env.step(oracle.act(obs)[1])
            if terminated or truncated:
                break
            timings = step["timings"]
            times["elements"].append(timings["observe_ms"])
            for mode in env.observations:
                if mode != "elements":
                    times[mode].append(timings[f"mode_{mode}_ms"])
                sizes[mode].append(size(mode, obs.modes[mode]))
            steps.append(timings["action_ms"] + timings["settle_ms"] + timings["observe_ms"] + timings["modes_ms"])
    return times, sizes, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2, help="oracle episodes per task")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with embedded_server() as server, CrmEnv(server.url, observations=tuple(modes())) as env:
        env.reset(task=TASK_NAMES[0], seed=999)  # warm-up: browser start, first page
        times, sizes, steps = measure(env, args.episodes)
    print(f"machine: {os.cpu_count()} cores, load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    base = statistics.median(times["elements"])
    print(f"\nper-step cost of each observation mode, n={len(steps)} oracle steps (ms; ratio to the element list):")
    print(f"  {'mode':<11} {'median':>7} {'p90':>7} {'ratio':>6}   size (median, max)")
    for mode in modes():
        unit = "KB PNG" if modes()[mode].kind == IMAGE else "tokens"
        median = statistics.median(times[mode])
        print(f"  {mode:<11} {median:>7.1f} {percentile(times[mode], 0.9):>7.1f} {median / base:>6.2f}   "
              f"{statistics.median(sizes[mode]):g} / {max(sizes[mode]):g} {unit}")
    print(f"\nwhole step with every mode (action + settle + all modes): median {statistics.median(steps):.1f} ms")


if __name__ == "__main__":
    main()
