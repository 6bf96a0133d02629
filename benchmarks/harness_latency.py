"""How fast the agent harness is: reset, step and observation latency (medians), the observation's
size on every screen, and whole oracle episodes per minute at concurrency 1 and 4.

    .venv/bin/python benchmarks/harness_latency.py [--resets 20] [--episodes 2]

Runs an embedded server on a temporary SQLite file and the oracle policy; nothing else.
A step is action + settle + observation, in one call into the page where the action allows it (the
scores come with the episode's last step, reported apart as evaluate and timeline).
"""
from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.env.browser_env import CrmEnv  # noqa: E402
from agent.env.observation import observe, parse_observation  # noqa: E402
from agent.experiment.runner import plan, run_all  # noqa: E402
from agent.policies import make_policy  # noqa: E402
from scenarios.tasks import TASK_NAMES  # noqa: E402
from scenarios.app import embedded_server  # noqa: E402
from crm_app.http_client import http_sender  # noqa: E402

SCREEN_JS = """() => {
  if (document.querySelector('dialog[open]')) return 'cancel dialog';
  if (document.querySelector('[data-testid=datepicker]:not([hidden])')) return 'datepicker';
  const section = document.querySelector('section[data-screen]:not([hidden])');
  return section ? section.dataset.screen : 'none';
}"""


def median(values) -> float:
    return round(statistics.median(values), 1) if values else float("nan")


def measure_resets(env: CrmEnv, count: int) -> list[dict]:
    env.reset(task=TASK_NAMES[0], seed=999)  # warm-up: browser start, first page
    return [env.reset(task=TASK_NAMES[i % len(TASK_NAMES)], seed=1000 + i)[1]["timings"] for i in range(count)]


def measure_steps(env: CrmEnv, episodes: int):
    """Oracle episodes one by one: step timings by action kind, observation size by screen, and
    the resets that follow a finished episode (whose blank page was opened when it ended)."""
    steps, screens, resets = defaultdict(list), defaultdict(list), []
    for task, seed in itertools.product(TASK_NAMES, range(episodes)):
        obs, info = env.reset(task=task, seed=seed)
        resets.append(info["timings"])
        policy = make_policy("oracle")
        policy.reset(info["scenario"])
        for _ in range(60):
            screens[env.page.evaluate(SCREEN_JS)].append(obs.tokens)
            _, action = policy.act(obs)
            obs, _, terminated, truncated, step = env.step(action)
            timings = step["timings"]
            kind = action.split()[0].upper()
            steps[kind].append(timings)
            if terminated or truncated:
                break
    return steps, screens, resets[1:]


def full_results_page(env: CrmEnv) -> tuple[int, float]:
    """Tokens and observation time of a return-trip results page with 8 flights each way."""
    send = http_sender(env.client.base_url)
    get = lambda path: send("GET", path)[1]  # noqa: E731
    today = dt.date.fromisoformat(get("/api/config")["today"])
    codes = [a["code"] for a in get("/api/airports?q=")["airports"]]
    for (a, b), offset in itertools.product(itertools.permutations(codes[:12], 2), range(10, 70, 7)):
        go, back = today + dt.timedelta(days=offset), today + dt.timedelta(days=offset + 3)
        found = get(f"/api/flights/search?from={a}&to={b}&date={go}&return={back}")
        if len(found["flights"]) == 8 and len(found["return_flights"]) == 8:
            break
    obs, _ = env.reset(task="TASK_FIND_FLIGHT", seed=77)
    for action in (f'TYPE From "{a}"', f'TYPE To "{b}"', f'TYPE Departure date "{go}"',
                   f'TYPE Return date "{back}"', "CLICK Search flights"):
        obs, *_ = env.step(action)
    assert sum(e["kind"] == "radio" for e in parse_observation(obs.text)) >= 16, obs.text
    times = []
    for _ in range(20):
        start = time.perf_counter()
        observe(env.page)
        times.append((time.perf_counter() - start) * 1000)
    return obs.tokens, median(times)


def throughput(url: str, token: str, concurrency: int, episodes: int) -> tuple[int, float]:
    with tempfile.TemporaryDirectory() as out:
        specs = plan("oracle", list(TASK_NAMES), episodes, seed=500 + concurrency * 100)
        start = time.perf_counter()
        run_all(specs, url, Path(out), concurrency=concurrency, progress=False, operator_token=token)
        minutes = (time.perf_counter() - start) / 60
        done = sum(json.loads(p.read_text()).get("complete", False) for p in Path(out).glob("*/*/*.json"))
    return done, round(done / minutes, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resets", type=int, default=20)
    parser.add_argument("--episodes", type=int, default=2, help="oracle episodes per task in each measurement")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with embedded_server() as server:
        token = server.app.config["OPERATOR_TOKEN"]  # the oracle reads the gold steps' values
        with CrmEnv(server.url, operator_token=token, warm_resets=False) as env:
            cold_resets = measure_resets(env, args.resets)
        with CrmEnv(server.url, operator_token=token) as env:
            steps, screens, resets = measure_steps(env, args.episodes)
            full_tokens, full_observe = full_results_page(env)
        rate1 = throughput(server.url, token, 1, args.episodes)
        rate4 = throughput(server.url, token, 4, args.episodes)
    report(args, (resets, cold_resets), steps, screens, (full_tokens, full_observe), rate1, rate4, load_before)


def report_resets(title: str, resets: list[dict]) -> None:
    without_evaluate = median([r["total_ms"] - r["evaluate_ms"] for r in resets])
    phases = "  ".join(f"{k[:-3]} {median([r[k] for r in resets])}" for k in resets[0] if k != "total_ms")
    print(f"{title}, n={len(resets)}:")
    print(f"  median {without_evaluate} ms without evaluate   ({phases} ms)   "
          f"target 300 ms, ratio {without_evaluate / 300:.2f}")


def report(args, resets, steps, screens, full, rate1, rate4, load_before) -> None:
    print(f"machine: {os.cpu_count()} cores, load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
    report_resets("\nreset after a finished episode (new scenario, the open page switched to it, first observation)",
                  resets[0])
    report_resets("reset with a page load (warm_resets=False: a new context, navigate, page ready)", resets[1])
    stops = steps.pop("STOP", [])
    print(f"ending an episode (STOP, with the one request for the episode's scores): median "
          f"{median([t['total_ms'] for t in stops])} ms, of which the scores {median([t['timeline_ms'] for t in stops])} ms")
    all_steps = [t for group in steps.values() for t in group]
    step_ms = lambda t: t["action_ms"] + t["settle_ms"] + t["observe_ms"]  # noqa: E731
    overall = median([step_ms(t) for t in all_steps])
    print(f"\nstep = action + settle + observation, n={len(all_steps)}:")
    print(f"  median {overall} ms   target 60 ms, ratio {overall / 60:.2f}")
    for kind, group in sorted(steps.items()):
        parts = "  ".join(f"{k} {median([t[f'{k}_ms'] for t in group])}" for k in ("action", "settle", "observe", "evaluate"))
        print(f"  {kind:<6} n={len(group):<4} median {median([step_ms(t) for t in group])} ms   ({parts} ms)")
    print(f"\nobservation: median {median([t['observe_ms'] for t in all_steps])} ms over all steps; "
          f"results page with 8+8 flights: {full[1]} ms, {full[0]} tokens (chars/4)")
    print("tokens per screen (median, max):")
    for screen, tokens in sorted(screens.items()):
        print(f"  {screen:<14} {int(statistics.median(tokens)):>4} {max(tokens):>4}")
    print(f"\noracle episodes per minute ({args.episodes} per task, all tasks):")
    print(f"  concurrency 1: {rate1[1]} ({rate1[0]} episodes)   concurrency 4: {rate4[1]} ({rate4[0]} episodes)"
          f"   ratio {rate4[1] / rate1[1]:.2f}")


if __name__ == "__main__":
    main()
