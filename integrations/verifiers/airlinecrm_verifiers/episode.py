"""One episode: the model's tool calls played through an OpenEnv session until it is done.

The first user turn is the reset's observation (the briefing and the caller's first line); the
tools are the episode's own (list_tools). Each tool call the model makes becomes an OpenEnv
`call_tool` action only when it names one of those tools with a JSON object of arguments; any
other call is answered with an error and sends nothing. A reply without tool calls ends the call
(`stop`, its text as the answer), and so do MAX_TURNS turns and vf-eval's own limits
(`--env.agent.max-turns`, token budgets: the model call it refuses). What the episode ends with is
its last step's reward (/evaluate's success) and verdicts.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from openai import AsyncOpenAI, BadRequestError

from .session import OpenEnvSession

STOP = "stop"
MAX_TURNS = 200  # calls the environment refuses take no step, so its own step limit may never come


@dataclass
class Outcome:
    reward: float = 0.0
    done: bool = False
    steps: int = 0
    metadata: dict = field(default_factory=dict)
    rejected_calls: int = 0  # tool calls that named no tool or had no JSON object of arguments


def openai_tools(tools: list[dict]) -> list[dict]:
    return [{"type": "function", "function": {"name": tool["name"], "description": tool.get("description") or tool["name"],
                                              "parameters": tool["input_schema"]}}
            for tool in tools]


def tool_answer(observation: dict) -> str:
    """What the model reads after a call: its answer (or error) and the customer's reply."""
    text = observation.get("text") or ""
    reply = observation.get("customer_reply")
    return f"{text}\nCUSTOMER: {reply}" if reply and reply not in text else text


def action_of(call, tool_names: set[str]) -> tuple[str, dict] | str:
    """(tool, arguments) for an allowed call, else the error the model is told."""
    name = call.function.name
    if name not in tool_names:
        return f"Error: there is no tool {name!r}; the tools: {', '.join(sorted(tool_names))}"
    try:
        arguments = json.loads(call.function.arguments or "{}")
    except json.JSONDecodeError as error:
        return f"Error: the arguments are not JSON ({error}); send a JSON object"
    if not isinstance(arguments, dict):
        return f"Error: the arguments must be a JSON object, not {type(arguments).__name__}"
    return name, arguments


def refused_by_vf_eval(error: BadRequestError) -> bool:
    """vf-eval's interception refuses a model call past a limit with a 400 'rollout stopped: ...'."""
    return "rollout stopped" in str(error)


async def play(model: AsyncOpenAI, model_name: str, openenv_url: str, reset: dict, system_prompt: str) -> Outcome:
    outcome = Outcome()
    async with OpenEnvSession(openenv_url) as env:
        first = await env.reset(**reset)
        observation = first["observation"]
        outcome.metadata = observation.get("metadata") or {}
        if first.get("done"):  # the reset could make no scenario: its error says why
            raise RuntimeError(observation.get("text") or "the reset made no scenario")
        tools = await env.tools()
        names = {tool["name"] for tool in tools}
        messages = [{"role": "system", "content": system_prompt}, {"role": "user", "content": observation["text"]}]
        result = first
        for _ in range(MAX_TURNS):
            try:
                reply = await model.chat.completions.create(model=model_name, messages=messages,
                                                            tools=openai_tools(tools))
            except BadRequestError as error:
                if not refused_by_vf_eval(error):
                    raise
                result = await env.call_tool(STOP, {})
                break
            message = reply.choices[0].message
            messages.append(message.model_dump(exclude_none=True))
            if not message.tool_calls:
                result = await env.call_tool(STOP, {"answer": message.content or ""})
                break
            for call in message.tool_calls:
                action = action_of(call, names)
                if isinstance(action, str):
                    outcome.rejected_calls += 1
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": action})
                    continue
                result = await env.call_tool(*action)
                outcome.steps += 1
                messages.append({"role": "tool", "tool_call_id": call.id, "content": tool_answer(result["observation"])})
                if result.get("done"):
                    break
            if result.get("done"):
                break
        else:
            result = await env.call_tool(STOP, {})
        outcome.reward = float(result.get("reward") or 0.0)
        outcome.done = bool(result.get("done"))
        outcome.metadata = result["observation"].get("metadata") or outcome.metadata
    return outcome
