"""`toolcall`: a tau-bench style agent that never opens a browser. It works the scenario through the
CRM's JSON API as tools (agent/crm/tools.py, run by agent/env/api_env.py), in the OpenAI chat tool-calling
format: the model gets the system prompt with the airline's policy (prompts/toolcall/), the task
and the conversation, and the tools; it answers with tool calls, reads their results as tool
messages, and ends with a final answer (a reply without tool calls), which ends the episode.

One step is one tool call: when the model calls several tools in one reply they are run one per
step, and the model is asked again once every call has its result. A malformed tool call (a tool
that does not exist, arguments that are not a JSON object) ends the episode at once
(`policy_halt`, with the cause). Zero-shot only: the policy document is the only guidance.
"""
from __future__ import annotations

import hashlib
import json

from ..crm.tools import tool_action
from ..env.modes import DEFAULT_MODES
from .llm_policy import LLMPolicy
from .prompting import conversation_text, load_prompt, render, task_text

HALT = "malformed tool call"


class ToolCallPolicy(LLMPolicy):
    name = "toolcall"
    shot_settings = ("0",)
    environment = "api"  # agent/env/kinds.py: the JSON API, no browser
    prompt_folder = "toolcall/"
    call_prompt = "toolcall/call"  # speaking is the message_customer tool

    def __init__(self, shots: str = "0", client=None, observations=DEFAULT_MODES, **options):
        if tuple(observations) != tuple(DEFAULT_MODES):
            raise ValueError("toolcall works the JSON API and sees no page: leave out --observations")
        super().__init__(shots, client, observations, **options)
        self.system = render(self.prompt("system"), policy=load_prompt(self.prompt("policy")))

    def system_prompts(self) -> dict[str, str]:
        return {"TOOLCALL": self.system}

    def start(self) -> None:
        task = render(self.prompt("task"), task=task_text(self.scenario), conversation=conversation_text(self.scenario))
        self.messages = [{"role": "system", "content": self.system}, {"role": "user", "content": task}]
        self.fresh = [task]  # what the next model call adds to the conversation, for its record
        self.tools: list[dict] = []
        self.queue: list[tuple[str, str, dict]] = []  # (call id, tool, arguments) still to run
        self.waiting: tuple[str, str] | None = None  # (call id, tool) whose result the next observation holds
        self.reason = ""

    def act(self, observation) -> tuple[str, str]:
        self.step_notes["stack"] = ["TOOLCALL"]
        if not self.tools:
            self.tools = _tool_definitions(observation)
        if self.waiting:
            self._take_result(observation.text)
        if not self.queue:
            halt = self._ask()
            if halt:
                self.step_notes["halt"] = f"{HALT}: {halt}"
                return f"Stopped: {HALT}: {halt}.", f"STOP [halted: {HALT}: {halt}]"
            if not self.queue:
                answer = " ".join(self.reason.split())
                return "The model answered without calling a tool: the task is over.", f"STOP [{answer}]"
        call_id, tool, arguments = self.queue.pop(0)
        self.waiting = (call_id, tool)
        self.step_notes["tool_call"] = {"id": call_id, "tool": tool, "arguments": arguments}
        return self.reason, tool_action(tool, arguments)

    def _take_result(self, text: str) -> None:
        call_id, tool = self.waiting
        self.messages.append({"role": "tool", "tool_call_id": call_id, "content": text})
        self.fresh.append(f"[{tool} answered]\n{text}")
        self.waiting = None

    def _ask(self) -> str | None:
        """Ask the model for its next turn and queue its tool calls; the reason to halt, if any."""
        completion = self.calls.chat(self.messages, self.tools, "toolcall", "\n\n".join(self.fresh))
        self.fresh = []
        message = {"role": "assistant", "content": completion.text or None}
        if completion.tool_calls:
            message["tool_calls"] = [dict(call) for call in completion.tool_calls]
        self.messages.append(message)
        self.reason = completion.text
        names = [tool["function"]["name"] for tool in self.tools]
        for call in completion.tool_calls:
            function = call.get("function") or {}
            arguments, problem = _read_call(function.get("name"), function.get("arguments"), names)
            if problem:
                self.queue = []
                return problem
            self.queue.append((call["id"], function["name"], arguments))
        return None

    def episode_context(self) -> dict:
        """The tools the model was given (as the server's OpenAPI document made them)."""
        digest = hashlib.sha256(json.dumps(self.tools, sort_keys=True).encode()).hexdigest()[:16]
        return {"tools": [tool["function"]["name"] for tool in self.tools], "tools_sha256": digest,
                "tool_definitions": self.tools}


def _tool_definitions(observation) -> list[dict]:
    tools = getattr(observation, "tools", None)
    if not tools:
        raise RuntimeError("toolcall needs the API environment (agent/env/api_env.py), whose observations carry the tools")
    return tools


def _read_call(name, arguments, names: list[str]) -> tuple[dict | None, str | None]:
    """A tool call's arguments as a dict, or why it cannot be run as the model wrote it."""
    if name not in names:
        return None, f"the model called {name!r}, which is not a tool (the tools: {', '.join(names)})"
    try:
        parsed = json.loads(arguments or "{}")
    except (TypeError, ValueError) as error:
        return None, f"the arguments of {name} are not valid JSON ({error}): {str(arguments)[:200]!r}"
    if not isinstance(parsed, dict):
        return None, f"the arguments of {name} are not a JSON object: {str(arguments)[:200]!r}"
    return parsed, None
