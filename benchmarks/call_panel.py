"""What the hard look's call panel adds to an element-list observation, measured in one run.

    .venv/bin/python benchmarks/call_panel.py [--reads 40]

For each hard task (seed 0) the scenario's page is opened, four lines are said through the panel
(so its transcript holds nine), and the element list is read `--reads` times with the panel and
`--reads` times on the same page with the panel taken out of the document, alternating, so that
both see the same machine. The time is the page's own (`observe_ms`, page_agent.js's walk of the
DOM); medians in milliseconds, and the difference, which should stay under 2 ms.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.env.browser_env import CrmEnv  # noqa: E402
from agent.env.observation import observe  # noqa: E402
from scenarios.app import embedded_server  # noqa: E402
from scenarios.suites import SUITES  # noqa: E402

LINES = ("Hello, thank you for calling. How can I help?", "Could I have your confirmation code, please?",
         "And the passenger's date of birth?", "Thank you, one moment while I look.")


def say_through_panel(page) -> None:
    box = page.locator("[data-call] input")
    for line in LINES:
        box.fill(line)
        box.press("Enter")
        page.evaluate("() => window.crm.whenIdle()")


def reads(page, count: int) -> tuple[list[float], list[float]]:
    """(with the panel, without it) observe_ms, alternating reads of the one page."""
    with_panel, without = [], []
    for _ in range(count):
        with_panel.append(observe(page, settle=True).observe_ms)
        page.evaluate("() => { window.__panel = document.querySelector('[data-call]'); window.__panel.remove(); }")
        without.append(observe(page, settle=True).observe_ms)
        page.evaluate("() => document.body.append(window.__panel)")
    return with_panel, without


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=40, help="element-list reads per page, each way")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with_panel, without, items = [], [], []
    with embedded_server() as server, CrmEnv(server.url, suite="hard", on_call=True) as env:
        for task in SUITES["hard"].task_names:
            obs, _ = env.reset(task=task, seed=0)
            say_through_panel(env.page)
            found = reads(env.page, args.reads)
            with_panel += found[0]
            without += found[1]
            items.append(len(observe(env.page).elements))
    print(f"machine: {os.cpu_count()} cores, load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    base, panel = statistics.median(without), statistics.median(with_panel)
    print(f"\nelement-list observation of the hard look, n={len(without)} reads each way "
          f"({len(items)} tasks, a 9-line transcript; median {statistics.median(items):g} elements with the panel):")
    print(f"  without the panel  {base:6.2f} ms")
    print(f"  with the panel     {panel:6.2f} ms   (+{panel - base:.2f} ms, ratio {panel / base:.2f})")


if __name__ == "__main__":
    main()
