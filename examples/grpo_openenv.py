"""A GRPO-style loop over AirlineCRM's OpenEnv environment (docs/openenv.md), runnable with no model:

    .venv-openenv/bin/python examples/grpo_openenv.py [--prompts 2] [--samples 8]

Each prompt is a scenario (task, seed); its group is `--samples` sessions at once on that same
scenario, each asking an OpenAI-compatible model (chat tool calling; the observation is the user
turn, each tool's answer a tool message) for its next tool call until the episode is done. A
group's rewards give each sample its advantage, (reward - the group's mean) / its standard
deviation: what GRPO weighs that sample's tokens by in its loss (the update itself is the
trainer's, left out here).

The model here is the project's fake OpenAI-compatible server (tests/fake_openai.py), scripted:
the even samples of a group replay the oracle's tool calls (recorded by playing the oracle once on
the prompt's scenario), the odd ones call `stop` at once. Point `--base-url` and `--model` at a
real endpoint to train on its samples instead.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from openai import OpenAI
from openenv import GenericEnvClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from airlinecrm_openenv import crm, server  # noqa: E402
from airlinecrm_openenv.oracle import call_tool, gold_of, play  # noqa: E402
from airlinecrm_openenv.catalogue import openapi  # noqa: E402
from tests.fake_openai import FakeOpenAIServer  # noqa: E402

PROMPTS = [("TASK_POLICY_CANCEL", 3), ("TASK_POLICY_CHANGE", 5), ("TASK_FARE_QUESTION", 7), ("TASK_ESCALATION", 2)]
SYSTEM = "You are an airline call-centre agent. Work the call with the tools; the customer is on the line."


def rollout(openenv_url: str, model: OpenAI, model_name: str, task: str, seed: int, sample: str) -> float:
    """One episode: the model's tool calls until done; its reward."""
    with GenericEnvClient(base_url=openenv_url).sync() as env:
        result = env.reset(task=task, seed=seed)
        tools = [{"type": "function", "function": {"name": tool["name"], "description": tool["description"],
                                                   "parameters": tool["input_schema"]}}
                 for tool in env.step({"type": "list_tools"}).observation["tools"]]
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": result.observation["text"]}]
        while not result.done:
            reply = model.chat.completions.create(model=model_name, messages=messages, tools=tools, user=sample)
            message = reply.choices[0].message
            if not message.tool_calls:
                result = env.step(call_tool("stop", {"answer": message.content or ""}))
                break
            call = message.tool_calls[0]
            result = env.step(call_tool(call.function.name, json.loads(call.function.arguments or "{}")))
            messages += [{"role": "assistant", "content": message.content, "tool_calls": [call.model_dump()]},
                         {"role": "tool", "tool_call_id": call.id, "content": result.observation["text"]}]
        return float(result.reward or 0.0)


def oracle_calls(openenv_url: str, the_crm, task: str, seed: int) -> list[tuple[str, dict]]:
    """The tool calls the oracle makes on the scenario (task, seed): what the scripted model replays."""
    calls = []
    with GenericEnvClient(base_url=openenv_url).sync() as env:
        first = env.reset(task=task, seed=seed)

        def step(name, arguments):
            calls.append((name, arguments))
            return env.step(call_tool(name, arguments))

        play(step, gold_of(the_crm.url, the_crm.operator_token, first.observation["metadata"]["scenario_id"]),
             openapi(the_crm.url))
    return calls


def group_plans(gold: list, task: str, samples: int) -> dict[str, list]:
    """The even samples replay the oracle's calls, the odd ones stop at once."""
    return {f"{task}/{n}": gold if n % 2 == 0 else [("stop", {})] for n in range(samples)}


def scripted_model(plans: dict[str, list[tuple[str, dict]]]):
    """The fake model's script: at its k-th turn, sample "<task>/<n>" (the request's `user`) gets its
    plan's k-th call, and `stop` once the plan is played."""
    def reply(request: dict) -> dict:
        plan = plans[request["user"]]
        turn = sum(message["role"] == "assistant" for message in request["messages"])
        name, arguments = plan[turn] if turn < len(plan) else ("stop", {})
        return {"tool_calls": [{"name": name, "arguments": arguments}]}
    return reply


def group(openenv_url: str, model: OpenAI, task: str, seed: int, samples: int, pool: ThreadPoolExecutor) -> tuple[list[float], list[float]]:
    """A group's rewards and advantages: `samples` rollouts at once on the scenario (task, seed)."""
    rewards = list(pool.map(lambda n: rollout(openenv_url, model, "fake", task, seed, f"{task}/{n}"), range(samples)))
    mean, spread = statistics.fmean(rewards), statistics.pstdev(rewards) or 1.0
    return rewards, [round((reward - mean) / spread, 2) for reward in rewards]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prompts", type=int, default=2, help=f"scenarios (at most {len(PROMPTS)})")
    parser.add_argument("--samples", type=int, default=8, help="the group size: samples per scenario")
    args = parser.parse_args()
    the_crm = crm.start()
    with server.background(the_crm) as running:
        prompts = PROMPTS[:args.prompts]
        plans = {}
        for task, seed in prompts:
            plans |= group_plans(oracle_calls(running.url, the_crm, task, seed), task, args.samples)
        with FakeOpenAIServer(scripted_model(plans)) as fake, ThreadPoolExecutor(args.samples) as pool:
            model = OpenAI(base_url=fake.base_url, api_key="fake")
            for task, seed in prompts:
                rewards, advantages = group(running.url, model, task, seed, args.samples, pool)
                print(f"{task} seed {seed}: rewards {rewards}  advantages {advantages}")


if __name__ == "__main__":
    main()
