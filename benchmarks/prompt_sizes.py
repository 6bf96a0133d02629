"""How big the LLM methods' prompts are, zero-shot and few-shot, on the CRM's real pages.

    .venv/bin/python benchmarks/prompt_sizes.py [--episodes 2]

No model is called. The oracle plays every task; at each of its steps the prompt each method would
send is built from the real observation (system prompt + the per-step message with the task, the
history so far and the page). Sizes are characters / 4, the estimate the harness uses for
observations; a real tokenizer would differ by some percent, the ratios much less.
For flat, "per episode" assumes one model call per page action, as an agent that acts like the
oracle would make; step and heap make more calls (one per CALL/RETURN or plan), so only their
per-call sizes are reported.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.env import CrmEnv  # noqa: E402
from agent.policies import make_policy  # noqa: E402
from agent.tasks import ALL_TASKS  # noqa: E402
from crm_app import create_app  # noqa: E402
from crm_app.server import BackgroundServer  # noqa: E402

METHODS = ("flat", "heap", "step")


def tokens(text: str) -> int:
    return round(len(text) / 4)


def oracle_pages(env: CrmEnv, episodes: int) -> list[tuple[dict, list]]:
    """(scenario, [(observation, action), ...]) for oracle episodes of every task."""
    played = []
    for task in ALL_TASKS:
        for seed in range(episodes):
            obs, info = env.reset(task=task, seed=seed)
            oracle = make_policy("oracle")
            oracle.reset(info["scenario"])
            steps = []
            for _ in range(60):
                _, action = oracle.act(obs)
                steps.append((obs, action))
                obs, _, terminated, truncated, _ = env.step(action)
                if terminated or truncated:
                    break
            played.append((info["scenario"], steps))
    return played


def measure(method: str, shots: str, played: list) -> dict:
    policy = make_policy(method, shots=shots, model="none", api_key="unused")
    systems = {name: tokens(text) for name, text in policy.system_prompts().items()}
    per_call, per_episode = [], []
    for scenario, steps in played:
        policy.scenario = scenario
        history, episode = [], 0
        for obs, action in steps:
            user = tokens(policy.state_prompt(obs, history))
            per_call.append(user)
            episode += user
            history.append(action)
        per_episode.append(episode + len(steps) * systems.get("FLAT", 0))
    return {"systems": systems, "user": statistics.median(per_call), "flat_episode": statistics.median(per_episode)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2, help="oracle episodes per task")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE_URL": f"sqlite:///{Path(folder) / 'crm.db'}"})
        with BackgroundServer(app) as server, CrmEnv(server.url) as env:
            played = oracle_pages(env, args.episodes)
    sizes = {(m, s): measure(m, s, played) for m in METHODS for s in ("0", "few")}
    calls = sum(len(steps) for _, steps in played)
    print(f"{len(played)} oracle episodes, {calls} pages; sizes in tokens (characters / 4)\n")
    print(f"per-step message (task, conversation, history, page): median {sizes['flat', '0']['user']}")
    print("\nsystem prompt per policy       zero-shot  few-shot  ratio")
    for method in METHODS:
        zero, few = sizes[method, "0"]["systems"], sizes[method, "few"]["systems"]
        for name in zero:
            print(f"  {method:<5} {name:<22} {zero[name]:>8}  {few[name]:>8}  {few[name] / zero[name]:5.2f}")
    zero, few = sizes["flat", "0"]["flat_episode"], sizes["flat", "few"]["flat_episode"]
    print(f"\nflat, prompt tokens per episode at one call per oracle action (median): "
          f"zero-shot {zero:.0f}, few-shot {few:.0f}, ratio {few / zero:.2f}")


if __name__ == "__main__":
    main()
