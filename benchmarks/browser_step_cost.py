"""What a browser step costs the machine: CPU milliseconds per oracle step on expert calls (SAY
channel), of this process (the driver and the embedded server) and of Chromium, the way make test's
browser sweeps play them, against the ways they were played before, measured in one run.

    .venv/bin/python benchmarks/browser_step_cost.py [--templates 8] [--rounds 3]

- now: as the code is (the page sleeps through the quiet time it waits for after an action).
- polling: the page waits for quiet by polling task by task.
- window drawn: the page's window left as it opens instead of minimized (agent/env/browser.py
  stop_drawing), so that Chromium draws its frames.
- objects back: the page agent's results come back as Playwright values (checked by its Python
  client value by value) instead of one JSON string.
- six at once: `python -m agent run --concurrency 6` against `--concurrency 1` (the sweeps' setting
  before and now), both through the command and one shared browser.

Chromium's renderers come and go, so its CPU is sampled from /proc while it runs (each process's
last reading counts). Medians over the rounds; ratios against `now` from the same run.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from agent.__main__ import main as agent_main  # noqa: E402
from agent.env import browser_env, observation  # noqa: E402
from agent.env.browser import launch_chromium  # noqa: E402
from agent.env.browser_env import CrmEnv  # noqa: E402
from agent.episode.play import play_episode  # noqa: E402
from agent.episode.spec import EpisodeSpec  # noqa: E402
from agent.experiment.protocols import PROTOCOLS  # noqa: E402
from agent.policies import make_policy  # noqa: E402
from scenarios.app import embedded_server  # noqa: E402
from scenarios.tasks.expert import TEMPLATES  # noqa: E402
from tests.cpu_cost import descendants, process_stats  # noqa: E402

# The page agent's wait before this change, polling for the quiet time task by task.
POLLING_SETTLE = """  async function settle(quietMs = 4, maxMs = 10000) {
    const start = performance.now();
    const crm = () => window.crm || {};
    while (window.crm && !crm().ready && performance.now() - start < maxMs) await sleep(2);
    if (crm().whenIdle) {
      await Promise.race([crm().whenIdle(), sleep(maxMs)]);
    }
    while (performance.now() - start < maxMs) {
      await nextTask();
      const busy = crm().pendingEvents ? crm().pendingEvents() > 0 : false;
      if (!busy && performance.now() - lastMutation >= quietMs) break;
      if (busy && crm().whenIdle) await crm().whenIdle();
    }
    return performance.now() - start;
  }
"""


class ChildCpu:
    """CPU seconds of this process's descendants (Chromium, Playwright's driver), sampled from /proc
    every 0.2 s: a process that ends between samples keeps its last reading."""

    def __init__(self):
        self.last: dict[int, float] = {}  # pid -> its own CPU seconds when last seen
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ChildCpu:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def total(self) -> float:
        self.sample()
        return sum(self.last.values())

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            self.sample()

    def sample(self) -> None:
        stats = process_stats(own_only=True)
        for pid in descendants(stats, os.getpid()):
            self.last[pid] = stats[pid][1]


def page_agent_with(settle: str | None) -> None:
    """The page agent that pages get from now on: as written, or with `settle` in place of its wait."""
    source = observation.PAGE_AGENT_JS
    if settle is not None:
        start = source.index("  async function settle(")
        end = source.index("\n  }\n", start) + len("\n  }\n")
        source = source[:start] + settle + source[end:]
    observation._CALL = f"([method, args]) => (window.__agent || {source})[method](...args)"
    observation._CALL_JSON = observation.calling(f"(window.__agent || {source})")


CALL_PAGE_FOR_JSON = observation.call_page
STOP_DRAWING = browser_env.stop_drawing


def windows_drawn(drawn: bool) -> None:
    """Pages opened from now on keep their window as it opens (`drawn`), or have it minimized."""
    browser_env.stop_drawing = (lambda page: None) if drawn else STOP_DRAWING


def call_page_for_objects(page, method: str, *args):
    """call_page as it was before results came back as JSON text."""
    result = page.evaluate("([method, args]) => window.__agent ? window.__agent[method](...args) : {missing: true}",
                           [method, list(args)])
    if isinstance(result, dict) and result.get("missing"):
        result = page.evaluate(observation._CALL, [method, list(args)])
    return result


def results_as(call_page) -> None:
    """Every module of the environment calls the page agent through `call_page` from now on."""
    for module in list(sys.modules.values()):
        if (getattr(module, "__name__", "") or "").startswith("agent.env") and hasattr(module, "call_page"):
            module.call_page = call_page


def one_at_a_time(url: str, token: str, browser, tasks: list[str], cpu: ChildCpu) -> tuple[int, float, float]:
    """(steps, this process's CPU seconds, its children's) of the oracle on `tasks` in a new page."""
    env = CrmEnv(url, browser=browser, operator_token=token, **PROTOCOLS["expert"].env_options("say"))
    policy = make_policy("oracle", protocol="expert", on_call=True, channel="say")
    play = lambda task: play_episode(env, policy, EpisodeSpec(method="oracle", task=task, seed=0, max_steps=200))  # noqa: E731
    play(tasks[0])  # the page loaded and the page agent installed
    own, children, steps = time.process_time(), cpu.total(), 0
    for task in tasks[1:]:
        steps += len(play(task).steps)
    own, children = time.process_time() - own, cpu.total() - children
    env.close()
    return steps, own, children


def through_the_command(url: str, token: str, tasks: list[str], concurrency: int, cpu: ChildCpu) -> tuple[int, float, float]:
    """The same through `python -m agent run` (its own browser), `concurrency` episodes at once."""
    with tempfile.TemporaryDirectory() as out:
        own, children = time.process_time(), cpu.total()
        assert agent_main(["run", "--protocol", "expert", "--method", "oracle", "--channel", "say", "--server", url,
                           f"--operator-token={token}", "--tasks", ",".join(tasks), "--episodes", "1", "--out", out,
                           "--quiet", "--no-report", "--concurrency", str(concurrency), "--browsers", "1"]) == 0
        own, children = time.process_time() - own, cpu.total() - children
        steps = sum(len(json.loads(path.read_text())["steps"]) for path in Path(out).glob("oracle/*/*.json"))
    return steps, own, children


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--templates", type=int, default=8, help="expert templates per measurement (seed 0)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    tasks = [template.name for template in TEMPLATES][::max(1, len(TEMPLATES) // args.templates)][:args.templates]
    results: dict[str, list[tuple[float, float]]] = {}
    load_before = os.getloadavg()[0]
    with embedded_server() as server, ChildCpu() as cpu, sync_playwright() as playwright:
        token, browser = server.app.config["OPERATOR_TOKEN"], launch_chromium(playwright)
        ways = measures(server.url, token, browser, tasks, cpu)
        for _ in range(args.rounds):
            for name, measure in ways.items():
                steps, own, children = measure()
                results.setdefault(name, []).append((own * 1000 / steps, children * 1000 / steps))
        browser.close()
    report(results, args, load_before)


def measures(url: str, token: str, browser, tasks: list[str], cpu: ChildCpu) -> dict:
    """Each way's measurement: () -> (steps, this process's CPU seconds, its children's)."""
    def changed(change, undo):
        """The measurement with the code changed by `change()` (and put back by `undo()`)."""
        def measure():
            change()
            try:
                return one_at_a_time(url, token, browser, tasks, cpu)
            finally:
                undo()
        return measure

    return {"now": lambda: one_at_a_time(url, token, browser, tasks, cpu),
            "polling": changed(lambda: page_agent_with(POLLING_SETTLE), lambda: page_agent_with(None)),
            "window drawn": changed(lambda: windows_drawn(True), lambda: windows_drawn(False)),
            "objects back": changed(lambda: results_as(call_page_for_objects), lambda: results_as(CALL_PAGE_FOR_JSON)),
            "command, one at a time": lambda: through_the_command(url, token, tasks, 1, cpu),
            "command, six at once": lambda: through_the_command(url, token, tasks, 6, cpu)}


def report(results: dict, args, load_before: float) -> None:
    print(f"machine: {os.cpu_count()} cores, load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(f"CPU ms per oracle step, expert calls on the SAY channel ({args.templates} templates, seed 0), "
          f"median of {args.rounds} rounds:")
    total = lambda name: statistics.median(own + children for own, children in results[name])  # noqa: E731
    print(f"  {'way':<24} {'this process':>12} {'Chromium+driver':>16} {'total':>7}  ratio")
    for name, rows in results.items():
        base = "command, one at a time" if name.startswith("command") else "now"
        print(f"  {name:<24} {statistics.median(r[0] for r in rows):>12.1f} {statistics.median(r[1] for r in rows):>16.1f} "
              f"{total(name):>7.1f}  {total(name) / total(base):.2f}")


if __name__ == "__main__":
    main()
