"""How long the run report takes to build and to open, for a 600-episode run.

    .venv/bin/python benchmarks/report_build.py [--builds 3] [--opens 5]

The run is synthetic (tests/agent/synthetic_runs.py: 4 LLM-style labels x 6 tasks x 25 seeds,
every step with a model call, its prompt and reply, like a real flat run's trajectory): it tests
the report, it is no model's result. Building is `agent.report.write_report` (load, summary,
charts, 600 episode pages, 150 comparison pages). Opening is the overview in headless Chromium from
the file system, in a fresh browser context each time, until its load event (charts included).
Targets: build < 30 s, open < 2 s.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from agent.env.browser import launch_chromium  # noqa: E402
from agent.results.report import write_report  # noqa: E402
from tests.agent.synthetic_runs import write_run  # noqa: E402

LABELS = ("flat-zero-shot", "flat-few-shot", "heap-few-shot", "step-few-shot")
BUILD_TARGET_S, OPEN_TARGET_S = 30.0, 2.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=3)
    parser.add_argument("--opens", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="report-bench-") as folder:
        out = Path(folder)
        episodes = len(write_run(out, labels=LABELS, seeds=25, broken=False))
        size = sum(p.stat().st_size for p in out.rglob("*.json")) / 1e6
        print(f"{episodes} synthetic episodes, {size:.0f} MB of trajectories")
        timings = [_timed(lambda: write_report(out)) for _ in range(args.builds)]
        index = out / "report" / "index.html"
        pages = sum(1 for _ in (out / "report").rglob("*.html"))
        report_mb = sum(p.stat().st_size for p in (out / "report").rglob("*") if p.is_file()) / 1e6
        print(f"report: {pages} pages, {report_mb:.0f} MB, overview {index.stat().st_size / 1e3:.0f} kB")
        opens = _open_times(index, args.opens)
    _line("build the report", [wall for wall, _ in timings], BUILD_TARGET_S)
    print(f"  of which this process's CPU time: median {statistics.median(cpu for _, cpu in timings):.2f} s "
          "(the rest is waiting for the CPU or the disk: it shows how loaded the machine was)")
    _line("open the overview (to its load event)", opens, OPEN_TARGET_S)


def _timed(work) -> tuple[float, float]:
    """Wall-clock and CPU seconds of work()."""
    start, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - start, time.process_time() - cpu


def _open_times(index: Path, times: int) -> list[float]:
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        found = []
        for _ in range(times):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            start = time.perf_counter()
            page.goto(index.as_uri(), wait_until="load")
            found.append(time.perf_counter() - start)
            assert page.locator("#episode-table tbody tr").count() > 0
            context.close()
        browser.close()
    return found


def _line(what: str, seconds: list[float], target: float) -> None:
    median = statistics.median(seconds)
    print(f"{what}: median {median:.2f} s over {len(seconds)} (target < {target:.0f} s, "
          f"{median / target:.2f} of it); all: {', '.join(f'{s:.2f}' for s in seconds)}")


if __name__ == "__main__":
    main()
