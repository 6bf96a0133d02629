"""CrmEnv against BrowserGym on the same CRM: the same oracle episodes, interleaved in one run,
with the medians of a step and of a reset on each side, their ratios, and where the time goes.

    .venv/bin/python benchmarks/vs_browsergym.py [--episodes 10] [--task TASK_FIND_FLIGHT]

BrowserGym runs in its own environment (.venv-browsergym, `make browsergym`), in a process that
this script drives line by line (this same file, run there with --browsergym-side). Both drive one
CRM server in a third process (run.py on a temporary SQLite file). BrowserGym is tuned as a user
of it would tune it: slow_mo 0, pre_observation_delay 0, Debian Chromium; its task is
browsergym/openended on the scenario's page, whose setup also waits until the CRM app is ready.

A reset is a new scenario (GET /generate-random-scenario), the page ready and the first
observation. A step is one call of the environment's step(): the action, the wait for the page
and the observation (BrowserGym: DOM snapshot, accessibility tree, screenshot; CrmEnv: the element
list, its per-step progress read from the server's timeline when the episode ends). The oracle
picks each action from the element list; on BrowserGym's side the element it names is acted on by
its BrowserGym id (click, fill, select_option), and that choosing is not timed. The first
episode on each side is a warm-up (browser start) and is not counted.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BROWSERGYM_PYTHON = ROOT / ".venv-browsergym" / "bin" / "python"
MAX_STEPS = 40


def median(values) -> float:
    return round(statistics.median(values), 1) if values else float("nan")


def ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000


# ---- BrowserGym's side (run in .venv-browsergym) ----

def browsergym_side(url: str, token: str) -> None:
    """Plays the episodes asked for on stdin ({"task", "seed"} per line), one JSON answer per line."""
    import gymnasium as gym  # noqa: F401 (BrowserGym registers its environments with gymnasium)
    from browsergym.core.env import BrowserEnv
    from browsergym.core.task import OpenEndedTask

    from agent.crm.client import ScenarioClient
    from agent.env.browser_env import VIEWPORT, wait_until_ready
    from airlinecrm_browsergym.chromium import use_debian_chromium

    class ReadyTask(OpenEndedTask):
        """browsergym/openended whose first observation waits for the CRM app to be ready."""

        def setup(self, page):
            goal, info = super().setup(page)
            wait_until_ready(page)
            return goal, info

    logging.getLogger("browsergym").setLevel(logging.ERROR)  # it warns of every setting overridden
    use_debian_chromium()
    client = ScenarioClient(url, operator_token=token, modality="ui")
    env = BrowserEnv(task_entrypoint=ReadyTask, task_kwargs={"start_url": url}, viewport=dict(VIEWPORT),
                     slow_mo=0, headless=True, pre_observation_delay=0)
    for line in sys.stdin:
        asked = json.loads(line)
        print(json.dumps(_browsergym_episode(env, client, asked["task"], asked["seed"])), flush=True)
    env.close()


def _browsergym_episode(env, client, task: str, seed: int) -> dict:
    from agent.env.observation import observe
    from agent.policies.oracle import OraclePolicy

    start = time.perf_counter()
    scenario, _ = client.generate(task, seed)
    scenario_ms = ms_since(start)
    env.task_kwargs = {"start_url": scenario["url"]}
    env.reset(seed=seed)
    reset = {"total_ms": ms_since(start), "scenario_ms": scenario_ms}
    oracle = OraclePolicy()
    oracle.reset(scenario)
    steps = []
    for _ in range(MAX_STEPS):
        seen = observe(env.page, settle=True)
        action = _browsergym_action(env.page, oracle.act(seen)[1], seen.elements)
        if action is None:  # STOP: the oracle is done
            break
        start = time.perf_counter()
        _, _, _, _, info = env.step(action)
        total = ms_since(start)
        steps.append({"total_ms": total, **_browsergym_phases(info)})
    metrics = client.evaluate(scenario["id"])
    return {"reset": reset, "steps": steps, "success": metrics["success"]}


def _browsergym_action(page, text: str, elements: list[dict]) -> str | None:
    """The oracle's action as BrowserGym's: the element it names, by its BrowserGym id."""
    from agent.env.executor import read, resolve
    from agent.env.observation import page_node

    action, error = read(text)
    if action is None or action.name == "stop":
        return None
    element = resolve(action, elements)
    bid = page_node(page, "node", element["id"]).get_attribute("bid")
    if action.name == "click":
        return f"click({bid!r})"
    if element["kind"] == "select":
        return f"select_option({bid!r}, {action.value!r})"
    return f"fill({bid!r}, {(action.value or '')!r})"


def _browsergym_phases(info: dict) -> dict:
    """Milliseconds of a BrowserGym step's phases, from the times its info carries."""
    def span(first: str, last: str) -> float:
        return (info[last] - info[first]) * 1000 if first in info and last in info else 0.0
    return {"action_ms": span("action_exec_start", "action_exec_stop"),
            "wait_ms": span("wait_for_page_loading_start", "wait_for_page_loading_stop"),
            "validate_ms": span("validation_start", "validation_stop"),
            "observe_ms": span("get_observation_start", "get_observation_stop")}


# ---- CrmEnv's side and the comparison (run in .venv) ----

def crm_episode(env, task: str, seed: int) -> dict:
    from agent.policies.oracle import OraclePolicy

    start = time.perf_counter()
    obs, info = env.reset(task=task, seed=seed)
    reset = {**info["timings"], "total_ms": ms_since(start)}
    oracle = OraclePolicy()
    oracle.reset(info["scenario"])
    steps = []
    for _ in range(MAX_STEPS):
        action = oracle.act(obs)[1]
        start = time.perf_counter()
        obs, _, terminated, truncated, info = env.step(action)
        steps.append({**info["timings"], "total_ms": ms_since(start)})
        if terminated or truncated:
            break
    steps.pop()  # the closing STOP: BrowserGym's side has no such step
    return {"reset": reset, "steps": steps, "success": info["metrics"]["success"]}


class BrowserGymSide:
    """This file run with --browsergym-side in .venv-browsergym."""

    def __init__(self, url: str, token: str):
        self.process = subprocess.Popen([str(BROWSERGYM_PYTHON), __file__, "--browsergym-side", url, token],
                                        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def episode(self, task: str, seed: int) -> dict:
        self.process.stdin.write(json.dumps({"task": task, "seed": seed}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("BrowserGym's side stopped")
        return json.loads(line)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def crm_server(folder: str, token: str):
    """run.py on a SQLite file in `folder`, on a free port, with `token` as its operator token."""
    from benchmarks.server_throughput import ServerProcess

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "CRM_INSTANCE_PATH": folder, "CRM_OPERATOR_TOKEN": token}
    return ServerProcess([sys.executable, "run.py", "--port", str(port), "--db", f"sqlite:///{folder}/crm.db"], env=env)


def compare(args) -> None:
    from agent.env.browser_env import CrmEnv

    if not BROWSERGYM_PYTHON.exists():
        sys.exit(f"{BROWSERGYM_PYTHON} is missing: make browsergym builds it")
    load_before = os.getloadavg()[0]
    token = secrets.token_hex(16)
    results = {"crm": [], "browsergym": []}
    with tempfile.TemporaryDirectory(prefix="vs-browsergym-") as folder, crm_server(folder, token) as server:
        gym_side = BrowserGymSide(server.url, token)
        try:
            with CrmEnv(server.url, operator_token=token) as env:
                for episode in range(args.episodes + 1):  # the first is the warm-up
                    seed = 100 + episode
                    results["crm"].append(crm_episode(env, args.task, seed))
                    results["browsergym"].append(gym_side.episode(args.task, seed))
                    print(f"\repisode {episode}/{args.episodes}", end="", file=sys.stderr, flush=True)
        finally:
            gym_side.close()
    print(file=sys.stderr)
    report(args, {side: played[1:] for side, played in results.items()}, load_before)


def report(args, results: dict, load_before: float) -> None:
    crm, gym = results["crm"], results["browsergym"]
    steps = {side: [s for e in played for s in e["steps"]] for side, played in results.items()}
    resets = {side: [e["reset"] for e in played] for side, played in results.items()}
    print(f"machine: {os.cpu_count()} cores, load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(f"{args.task}, {len(crm)} episodes per side (interleaved; a warm-up episode each not counted); "
          f"oracle successes: CrmEnv {sum(e['success'] for e in crm)}, BrowserGym {sum(e['success'] for e in gym)}")
    print(f"\n{'figure':<44}{'CrmEnv':>10}{'BrowserGym':>12}{'ratio':>8}")
    for name, figures in (("step (action, page settled, observation)", steps), ("reset (new scenario, page ready, "
                                                                                  "first observation)", resets)):
        ours, theirs = median([f["total_ms"] for f in figures["crm"]]), median([f["total_ms"] for f in figures["browsergym"]])
        print(f"{name[:43]:<44}{ours:>8} ms{theirs:>10} ms{theirs / ours:>7.1f}x")
    print(f"  (steps: {len(steps['crm'])} CrmEnv, {len(steps['browsergym'])} BrowserGym)")
    print("\nwhere a step's time goes (medians, ms):")
    print("  CrmEnv     " + phases(steps["crm"], ("action", "settle", "observe", "modes", "evaluate")))
    print("  BrowserGym " + phases(steps["browsergym"], ("action", "wait", "validate", "observe")))
    print("where a reset's time goes (medians, ms):")
    print("  CrmEnv     " + phases(resets["crm"], ("scenario", "context", "load_and_observe", "modes", "evaluate")))
    print("  BrowserGym " + phases(resets["browsergym"], ("scenario",)) + "  (the rest: browser, context, page, observation)")
    warm = sum(1 for r in resets["crm"] if "context_ms" not in r)
    print(f"CrmEnv resets that switched the open page to the new scenario: {warm} of {len(resets['crm'])}")


def phases(figures: list[dict], names: tuple[str, ...]) -> str:
    return "  ".join(f"{name} {median([f.get(f'{name}_ms', 0.0) for f in figures])}" for name in names)


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--browsergym-side":
        browsergym_side(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10, help="episodes per side, after one warm-up each")
    parser.add_argument("--task", default="TASK_FIND_FLIGHT")
    compare(parser.parse_args())


if __name__ == "__main__":
    main()
