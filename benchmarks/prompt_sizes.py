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
import itertools
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.env.browser_env import CrmEnv  # noqa: E402
from agent.env.observation import Observation  # noqa: E402
from agent.episode.play import play_episode  # noqa: E402
from agent.episode.spec import EpisodeSpec  # noqa: E402
from agent.policies import make_policy  # noqa: E402
from scenarios.tasks import TASK_NAMES  # noqa: E402
from scenarios.app import embedded_server  # noqa: E402

METHODS = ("flat", "heap", "step")


def tokens(text: str) -> int:
    return round(len(text) / 4)


def oracle_pages(env: CrmEnv, episodes: int) -> list[tuple[dict, list]]:
    """(scenario, [(observation, action), ...]) for oracle episodes of every task."""
    oracle, played = make_policy("oracle"), []
    for task, seed in itertools.product(TASK_NAMES, range(episodes)):
        trajectory = play_episode(env, oracle, EpisodeSpec("oracle", task, seed, max_steps=60))
        played.append((trajectory.scenario,
                       [(Observation(step["observation"]), step["action"]) for step in trajectory.steps]))
    return played


def system_sizes(method: str, shots: str) -> dict[str, int]:
    policy = make_policy(method, shots=shots, model="none", api_key="unused")
    return {name: tokens(text) for name, text in policy.system_prompts().items()}


def message_sizes(played: list) -> list[list[int]]:
    """Per episode, the per-step message at each page (the same for every method and setting)."""
    policy = make_policy("flat", model="none", api_key="unused")
    sizes = []
    for scenario, steps in played:
        policy.reset(scenario)
        history, episode = [], []
        for obs, action in steps:
            episode.append(tokens(policy.state_prompt(obs, history)))
            history.append(action)
        sizes.append(episode)
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2, help="oracle episodes per task")
    args = parser.parse_args()
    with embedded_server() as server:
        token = server.app.config["OPERATOR_TOKEN"]  # the oracle reads the gold steps' values
        with CrmEnv(server.url, operator_token=token) as env:
            played = oracle_pages(env, args.episodes)
    systems = {(m, s): system_sizes(m, s) for m in METHODS for s in ("0", "few")}
    messages = message_sizes(played)
    print(f"{len(played)} oracle episodes, {sum(map(len, messages))} pages; sizes in tokens (characters / 4)\n")
    print(f"per-step message (task, conversation, history, page): "
          f"median {statistics.median([size for episode in messages for size in episode])}")
    print("\nsystem prompt per policy       zero-shot  few-shot  ratio")
    for method in METHODS:
        zero, few = systems[method, "0"], systems[method, "few"]
        for name in zero:
            print(f"  {method:<5} {name:<22} {zero[name]:>8}  {few[name]:>8}  {few[name] / zero[name]:5.2f}")
    zero, few = (statistics.median([sum(episode) + len(episode) * systems["flat", shots]["FLAT"]
                                    for episode in messages]) for shots in ("0", "few"))
    print(f"\nflat, prompt tokens per episode at one call per oracle action (median): "
          f"zero-shot {zero:.0f}, few-shot {few:.0f}, ratio {few / zero:.2f}")


if __name__ == "__main__":
    main()
