"""Episodes per minute and memory per episode in flight, with a slow model, on both backends.

    .venv/bin/python benchmarks/scale_out.py [--quick] [--concurrency 1,16,64] [--backends local,ray]

The model is the fake OpenAI-compatible server of the tests (tests/fake_openai.py) answering every
chat request after `--delay` seconds (1 s) with the scripted flight search of the flat method's
tests (tests/agent/scripted_model.py): each episode is a real flat episode of TASK_FIND_FLIGHT
(six model calls, five page actions and STOP), its model time simulated. For each backend and
concurrency the run plays max(8, 2 x concurrency) episodes (--quick: fewer) with the default
number of browsers (one per core), timed from the call to the last trajectory written (browser and
Ray worker start-up included). While it runs, the memory of this process and everything below it
(the embedded CRM server, Chromium's processes; with Ray, its own processes and workers) is
sampled: PSS from /proc/<pid>/smaps_rollup. Printed: episodes per minute, the ratio to one
episode at a time, Ray's ratio to local, the peak PSS divided by the episodes in flight, and what
each added episode in flight cost: (peak at concurrency c - peak at concurrency 1) / (c - 1).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.experiment.backends import ray_cluster  # noqa: E402
from agent.experiment.backends.capacity import default_browsers  # noqa: E402
from agent.experiment.runner import plan, run_all  # noqa: E402
from scenarios.app import embedded_server  # noqa: E402
from tests.agent.scripted_model import flat_search_flight  # noqa: E402
from tests.fake_openai import FakeOpenAIServer  # noqa: E402
from tests.process_tree import Watch, tree_pss_mb  # noqa: E402

TASK = "TASK_FIND_FLIGHT"


class MemoryPeak(Watch):
    """The highest PSS of this process tree while the block runs (sampled every half second)."""

    def __init__(self):
        self.peak = tree_pss_mb()
        super().__init__(self._sample, 0.5)

    def _sample(self):
        self.peak = max(self.peak, tree_pss_mb())


def measure(backend: str, concurrency: int, episodes: int, url: str, token: str, model_url: str) -> dict:
    """Play `episodes` flat episodes with `concurrency` in flight; their rate and memory."""
    specs = plan("flat", [TASK], episodes, seed=1000 * concurrency)
    options = {"model": "fake-model", "base_url": model_url}
    with tempfile.TemporaryDirectory() as out, MemoryPeak() as memory:
        start = time.perf_counter()
        run_all(specs, url, Path(out), concurrency, progress=False, policy_options=options, operator_token=token,
                backend=backend)
        minutes = (time.perf_counter() - start) / 60
        succeeded = sum('"success": 1' in path.read_text() for path in Path(out).glob("*/*/*.json"))
    return {"backend": backend, "concurrency": concurrency, "episodes": episodes, "succeeded": succeeded,
            "per_minute": episodes / minutes, "peak_mb": memory.peak,
            "per_episode_mb": memory.peak / concurrency}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="concurrency 1 and 8, fewer episodes")
    parser.add_argument("--concurrency", help="comma-separated (default 1,16,64)")
    parser.add_argument("--backends", default="local,ray", help="comma-separated: local, ray")
    parser.add_argument("--delay", type=float, default=1.0, help="seconds the fake model takes per call")
    args = parser.parse_args()
    levels = [int(c) for c in (args.concurrency or ("1,8" if args.quick else "1,16,64")).split(",")]
    backends = args.backends.split(",")
    load_before = os.getloadavg()[0]
    results = []
    with FakeOpenAIServer(flat_search_flight, delay_seconds=args.delay) as model, embedded_server() as server:
        token = server.app.config["OPERATOR_TOKEN"]
        for backend in backends:
            with ray_cluster.connected() if backend == "ray" else contextlib.nullcontext():
                for concurrency in levels:
                    episodes = max(4, concurrency) if args.quick else max(8, 2 * concurrency)
                    results.append(measure(backend, concurrency, episodes, server.url, token, model.base_url))
                    print(_line(results[-1]), flush=True)
    report(results, args, load_before)


def _line(result: dict) -> str:
    return (f"  {result['backend']:5} concurrency {result['concurrency']:3}: {result['per_minute']:6.1f} episodes/min "
            f"({result['succeeded']}/{result['episodes']} succeeded), peak PSS {result['peak_mb']:6.0f} MB "
            f"= {result['per_episode_mb']:5.0f} MB per episode in flight")


def report(results: list[dict], args, load_before: float) -> None:
    print(f"\nmachine: {os.cpu_count()} cores, {_memory_gb():.0f} GB; load average {load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after; fake model {args.delay} s per call; flat on {TASK}; "
          f"browsers: default ({default_browsers(64)} on this machine)")
    print(f"{'backend':8} {'concurrency':>11} {'episodes':>8} {'ep/min':>7} {'x c=1':>6} {'ray/local':>9} "
          f"{'peak PSS MB':>11} {'MB/episode':>10} {'MB/added':>8}")
    by_key = {(r["backend"], r["concurrency"]): r for r in results}
    for r in results:
        serial = by_key.get((r["backend"], 1))
        local = by_key.get(("local", r["concurrency"]))
        print(f"{r['backend']:8} {r['concurrency']:>11} {r['episodes']:>8} {r['per_minute']:>7.1f} "
              f"{r['per_minute'] / serial['per_minute'] if serial else float('nan'):>6.2f} "
              f"{r['per_minute'] / local['per_minute'] if local else float('nan'):>9.2f} "
              f"{r['peak_mb']:>11.0f} {r['per_episode_mb']:>10.0f} {_added_mb(r, serial):>8}")


def _added_mb(result: dict, serial: dict | None) -> str:
    """The PSS each episode in flight beyond the first added, in MB ("-" at concurrency 1)."""
    if not serial or result["concurrency"] == 1:
        return "-"
    return f"{(result['peak_mb'] - serial['peak_mb']) / (result['concurrency'] - 1):.0f}"


def _memory_gb() -> float:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30


if __name__ == "__main__":
    main()
