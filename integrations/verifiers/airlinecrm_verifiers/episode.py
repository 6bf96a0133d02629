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
    async with OpenEnvSession(openenv_url) as env:
        first = await env.reset(**reset)
        if first.get("done"):  # the reset could make no scenario: its error says why
            raise RuntimeError(first["observation"].get("text") or "the reset made no scenario")
        episode = Episode(env, await env.tools(), model, model_name)
        episode.messages = [{"role": "system", "content": system_prompt},
                            {"role": "user", "content": first["observation"]["text"]}]
        result = await episode.run()
    metadata = result["observation"].get("metadata") or {}
    return Outcome(reward=float(result.get("reward") or 0.0), done=bool(result.get("done")), steps=episode.steps,
                   metadata=metadata, rejected_calls=episode.rejected_calls)


class Episode:
    """The model's turns over one OpenEnv session, each answering its tool calls, until the episode is done."""

    def __init__(self, env: OpenEnvSession, tools: list[dict], model: AsyncOpenAI, model_name: str):
        self.env, self.model, self.model_name = env, model, model_name
        self.tools, self.names = openai_tools(tools), {tool["name"] for tool in tools}
        self.messages: list[dict] = []
        self.steps = self.rejected_calls = 0

    async def run(self) -> dict:
        """The last step's result: the one that ended the episode."""
        for _ in range(MAX_TURNS):
            message = await self.next_message()
            if message is None:  # vf-eval refused the turn: a limit was reached
                return await self.env.call_tool(STOP, {})
            if not message.tool_calls:
                return await self.env.call_tool(STOP, {"answer": message.content or ""})
            result = await self.answer(message.tool_calls)
            if result is not None and result.get("done"):
                return result
        return await self.env.call_tool(STOP, {})

    async def next_message(self):
        try:
            reply = await self.model.chat.completions.create(model=self.model_name, messages=self.messages,
                                                             tools=self.tools)
        except BadRequestError as error:
            if refused_by_vf_eval(error):
                return None
            raise
        message = reply.choices[0].message
        self.messages.append(message.model_dump(exclude_none=True))
        return message

    async def answer(self, calls) -> dict | None:
        """Each call's tool message; the last step's result (None when no call was allowed)."""
        result = None
        for call in calls:
            action = action_of(call, self.names)
            if isinstance(action, str):
                self.rejected_calls += 1
                self.messages.append({"role": "tool", "tool_call_id": call.id, "content": action})
                continue
            result = await self.env.call_tool(*action)
            self.steps += 1
            self.messages.append({"role": "tool", "tool_call_id": call.id, "content": tool_answer(result["observation"])})
            if result.get("done"):
                break
        return result
