"""AirlineCRM's OpenEnv environment under an RL trainer's load: N sessions at once, each on its own
hard scenario, playing the oracle's tool calls through OpenEnv's own WebSocket client
(integrations/openenv/; run it in .venv-openenv, as `make bench` does):

    .venv-openenv/bin/python benchmarks/rl_throughput.py [--sessions 1 16 64 256 512] [--wait-sessions 512]
        [--browser-sessions 1 4 16]

For each N: episodes/s, steps/s, p50 and p99 step latency (a client's step, the CRM's call and
/evaluate inside it), errors, and the OpenEnv server's memory per live session (the resident size
of it and its child processes, Chromium's among them, with the N sessions open, less that before,
over N). Then N sessions that wait `--wait` seconds before each step, as a model's turn would, and
the CRM alone on the same requests (each step's tool request and /evaluate, sent straight to it by
as many threads as the largest N, capped at 64): the environment's steps/s over the CRM's. Then the
browser mode on the same tasks and seeds (reset mode="browser", the element list; the project's
browser oracle's actions on the page) at `--browser-sessions`, and the tool mode's episodes/s over
the browser mode's, at each N both have and best against best.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from airlinecrm_openenv import catalogue, crm, server  # noqa: E402  (the package of integrations/openenv/)
from airlinecrm_openenv.oracle import act, call_tool, gold_of, play, play_on_page  # noqa: E402
from crm_app.http_client import http_sender  # noqa: E402
from openenv import GenericEnvClient  # noqa: E402
from scenarios.gold_path import GoldPath  # noqa: E402


class Tally:
    def __init__(self):
        self.lock, self.latencies, self.episodes, self.errors, self.rewards = threading.Lock(), [], 0, [], []

    def add(self, latencies: list[float], reward: float | None, error: str | None = None):
        with self.lock:
            self.latencies += latencies
            if error:
                self.errors.append(error)
            else:
                self.episodes += 1
                self.rewards.append(reward)


def session(url: str, the_crm, tasks: list[str], number: int, episodes: int, wait: float, tally: Tally,
            opened: threading.Barrier | None = None, mode: str = "tool"):
    """One live session: `episodes` oracle episodes on one WebSocket connection."""
    try:
        with GenericEnvClient(base_url=url, message_timeout_s=120).sync() as client:
            if opened is not None:
                client.reset(task=tasks[0], seed=number, mode=mode)
                opened.wait()  # every session is live: the server's memory is measured now
                opened.wait()
            for episode in range(episodes):
                seed = number * episodes + episode
                first = client.reset(task=tasks[seed % len(tasks)], seed=seed, mode=mode)
                gold = gold_of(the_crm.url, the_crm.operator_token, first.observation["metadata"]["scenario_id"])
                latencies = []

                def step(action):
                    time.sleep(wait)
                    started = time.perf_counter()
                    result = client.step(action)
                    latencies.append(time.perf_counter() - started)
                    if result.observation.get("error") and result.observation.get("status") is None:
                        raise RuntimeError(result.observation["error"]["message"])
                    return result

                if mode == "browser":
                    steps = play_on_page(lambda text: step(act(text)), first, gold)
                else:
                    steps = play(lambda name, arguments: step(call_tool(name, arguments)), gold,
                                 catalogue.openapi(the_crm.url))
                tally.add(latencies, steps[-1].reward)
    except Exception as error:  # counted, not raised: a benchmark reports its errors
        tally.add([], None, f"{type(error).__name__}: {error}")


def run(url: str, the_crm, tasks: list[str], server_pid: int, sessions: int, episodes: int, wait: float,
        mode: str = "tool") -> dict:
    tally, opened = Tally(), threading.Barrier(sessions + 1)
    before = rss_mb(server_pid)
    with ThreadPoolExecutor(sessions) as pool:
        futures = [pool.submit(session, url, the_crm, tasks, number, episodes, wait, tally, opened, mode)
                   for number in range(sessions)]
        try:
            opened.wait(timeout=600)
            live = rss_mb(server_pid)
            opened.wait(timeout=60)
        except threading.BrokenBarrierError:
            live = rss_mb(server_pid)
        started = time.perf_counter()
        for future in futures:
            future.result()
    seconds = time.perf_counter() - started
    return {"sessions": sessions, "episodes": tally.episodes, "seconds": seconds,
            "episodes_s": tally.episodes / seconds, "steps_s": len(tally.latencies) / seconds,
            "p50_ms": percentile(tally.latencies, 0.5) * 1000, "p99_ms": percentile(tally.latencies, 0.99) * 1000,
            "errors": len(tally.errors), "first_error": tally.errors[0] if tally.errors else "",
            "mb_per_session": (live - before) / sessions, "reward_mean": statistics.fmean(tally.rewards or [0])}


def crm_alone(the_crm, tasks: list[str], threads: int, episodes: int) -> float:
    """Steps/s of the CRM alone: each gold request, then /evaluate, straight to it (what one
    environment step asks of the CRM)."""
    from agent.crm.client import ScenarioClient

    count, lock = [0], threading.Lock()

    def worker(number: int):
        client = ScenarioClient(the_crm.url, operator_token=the_crm.operator_token, modality="api")
        send = http_sender(the_crm.url)
        for episode in range(episodes):
            seed = 10_000 + number * episodes + episode
            scenario, _ = client.generate(tasks[seed % len(tasks)], seed, "hard")

            def step(method, path, body=None, headers=None):
                answer = send(method, path, body, headers=headers)
                client.evaluate(scenario["id"])
                with lock:
                    count[0] += 1
                return answer

            GoldPath(step, gold_of(the_crm.url, the_crm.operator_token, scenario["id"])).play()

    started = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(worker, range(threads)))
    return count[0] / (time.perf_counter() - started)


def rss_mb(pid: int) -> float:
    """The resident size of the process and its descendants (the browser mode's Chromium)."""
    return sum(_own_rss_mb(each) for each in [pid, *descendants(pid)])


def _own_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:  # it ended meanwhile
        pass
    return 0.0


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[1, 16, 64, 256, 512])
    parser.add_argument("--episodes", type=int, default=2, help="episodes per session (N=1: 12)")
    parser.add_argument("--wait", type=float, default=2.0, help="seconds before each step in the waiting run")
    parser.add_argument("--wait-sessions", type=int, default=512)
    parser.add_argument("--browser-sessions", type=int, nargs="+", default=[1, 4, 16])
    args = parser.parse_args()

    the_crm = crm.start()
    with server.background(the_crm) as running:
        tasks = [row["name"] for row in catalogue.suites(the_crm.url)["hard"]]
        rows = [run(running.url, the_crm, tasks, running.pid, n, 12 if n == 1 else args.episodes, 0.0)
                for n in args.sessions]
        waiting = run(running.url, the_crm, tasks, running.pid, args.wait_sessions, 1, args.wait)
        alone = crm_alone(the_crm, tasks, min(64, max(args.sessions)), args.episodes)
        browser = [run(running.url, the_crm, tasks, running.pid, n, 12 if n == 1 else args.episodes, 0.0, "browser")
                   for n in args.browser_sessions]
    print_table(rows, waiting, alone, args.wait)
    print_browser(rows, browser)


def print_rows(title: str, rows: list[dict]) -> None:
    print(title)
    print(f"{'N':>5} {'episodes':>9} {'ep/s':>7} {'steps/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} "
          f"{'MB/session':>11} {'reward':>7}")
    for row in rows:
        print(f"{row['sessions']:>5} {row['episodes']:>9} {row['episodes_s']:>7.2f} {row['steps_s']:>8.1f} "
              f"{row['p50_ms']:>8.1f} {row['p99_ms']:>8.1f} {row['errors']:>7} {row['mb_per_session']:>11.3f} "
              f"{row['reward_mean']:>7.2f}")


def print_table(rows: list[dict], waiting: dict, alone: float, wait: float) -> None:
    print_rows("tool mode, hard suite, the oracle's calls over OpenEnv's WebSocket client, no waits:", rows)
    best = max(row["steps_s"] for row in rows)
    print(f"\n{waiting['sessions']} sessions waiting {wait:.1f} s before each step: {waiting['episodes']} episodes, "
          f"p50 {waiting['p50_ms']:.1f} ms, p99 {waiting['p99_ms']:.1f} ms, {waiting['errors']} errors "
          f"(target: no error, p99 under 250 ms: {'met' if not waiting['errors'] and waiting['p99_ms'] < 250 else 'NOT met'})")
    print(f"CRM alone on the same requests: {alone:.1f} steps/s; the environment's best {best:.1f} steps/s = "
          f"{best / alone:.2f} of it (target 0.8: {'met' if best >= 0.8 * alone else 'NOT met'})")
    for row in [*rows, waiting]:
        if row["errors"]:
            print(f"N={row['sessions']}: first error: {row['first_error'][:300]}")


def print_browser(tool_rows: list[dict], rows: list[dict]) -> None:
    """The browser mode's rows, and the tool mode's episodes/s over its own."""
    print_rows("\nbrowser mode, the same tasks and seeds, the browser oracle's actions on the page (element list):",
               rows)
    for row in rows:
        if row["errors"]:
            print(f"N={row['sessions']}: first error: {row['first_error'][:300]}")
    tool = {row["sessions"]: row["episodes_s"] for row in tool_rows}
    for row in rows:
        if row["sessions"] in tool and row["episodes_s"]:
            print(f"N={row['sessions']}: tool mode {tool[row['sessions']]:.2f} episodes/s, browser mode "
                  f"{row['episodes_s']:.2f}: {tool[row['sessions']] / row['episodes_s']:.1f}x")
    best_tool, best_browser = max(tool.values()), max(row["episodes_s"] for row in rows)
    ratio = best_tool / best_browser if best_browser else float("inf")
    print(f"best against best: tool mode {best_tool:.2f} episodes/s, browser mode {best_browser:.2f}: {ratio:.1f}x "
          f"(target at least 10x: {'met' if ratio >= 10 else 'NOT met'})")


if __name__ == "__main__":
    main()
