"""The oracle as an OpenEnv client plays it: a scenario's gold path (scenarios/gold_path.py) sent as
tool calls through the environment, the way a model's calls would go. GoldPath speaks HTTP to the
CRM; `ToolCallSender` turns each of its requests into the tool call that makes it (the tool whose
method and route it is, its path, query and body as the arguments) and hands that to `call`.

    gold = gold_of(crm_url, operator_token, scenario_id)          # the operator's: gold steps and calls
    steps = play(lambda name, arguments: client.step(call_tool(name, arguments)), gold, openapi_document)
    first, steps = episode(openenv_url, crm_url, operator_token, task="TASK_POLICY_CANCEL", seed=0)  # all of it

`call(name, arguments)` returns OpenEnv's StepResult (observation dict, reward, done); play stops at
the first step that ends the episode and returns every step's result.

In browser mode the oracle is the project's browser oracle (agent/policies/oracle.py): it reads
each observation's element list and answers with the action grammar's text, sent as the tool `act`:

    first, steps = browser_episode(openenv_url, crm_url, operator_token, task="TASK_POLICY_CANCEL", seed=0)
"""
from __future__ import annotations

import re
import time
import urllib.parse
from collections.abc import Callable

from openenv import GenericEnvClient

from agent.crm.client import ScenarioClient
from agent.crm.tools import HIDDEN_QUERY, tool_names, tools_from_openapi
from agent.env.observation import Observation
from agent.policies.oracle import OraclePolicy
from scenarios.gold_path import GoldPath

from .browser_mode import ACT_TOOL_NAME
from .catalogue import openapi


class EpisodeOver(Exception):
    """The environment said done: the gold path stops there."""


def call_tool(name: str, arguments: dict) -> dict:
    """OpenEnv's MCP tool-call action, as GenericEnvClient sends it."""
    return {"type": "call_tool", "tool_name": name, "arguments": arguments}


def act(text: str) -> dict:
    """The browser mode's action: the grammar's text as the tool act's argument."""
    return call_tool(ACT_TOOL_NAME, {"action": text})


def gold_of(crm_url: str, operator_token: str, scenario_id: str) -> dict:
    """The scenario's gold steps and calls, with their values (the operator's /evaluate)."""
    metrics = ScenarioClient(crm_url, operator_token=operator_token).evaluate(scenario_id)
    return {"id": scenario_id, "gold_actions": metrics["gold_actions"], "gold_calls": metrics["gold_calls"]}


class ToolCallSender:
    """A crm_app.http_client.Send that makes each request as a tool call through `call`."""

    def __init__(self, document: dict, call: Callable):
        tools = tools_from_openapi(document, tool_names(on_call=True, knowledge_base=True)).values()
        self.routes = [(tool.method, re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", tool.path) + "$"), tool)
                       for tool in tools]
        self.call = call
        self.results: list = []

    def __call__(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        route, _, query = path.partition("?")
        name, arguments = self.tool_call(method, route, urllib.parse.parse_qs(query), body or {})
        result = self.call(name, arguments)
        self.results.append(result)
        if result.done:
            raise EpisodeOver
        observation = result.observation
        return observation.get("status") or 0, observation.get("result") or {}

    def tool_call(self, method: str, route: str, query: dict, body: dict) -> tuple[str, dict]:
        for tool_method, pattern, tool in self.routes:
            found = pattern.match(route)
            if tool_method == method and found:
                params = {key: urllib.parse.unquote(value) for key, value in found.groupdict().items()}
                params |= {key: values[-1] for key, values in query.items() if key not in HIDDEN_QUERY}
                return tool.name, {**params, **_plain(body, tool.parameters["properties"])}
        raise ValueError(f"no tool makes the request {method} {route}")


def _plain(body: dict, known: dict) -> dict:
    """The body in the plain form the tool takes: fields the API also takes wrapped in an object of
    their own ({"passenger": {...}}) spread out."""
    plain = {}
    for key, value in body.items():
        plain |= value if key not in known and isinstance(value, dict) else {key: value}
    return plain


def play(call: Callable, gold: dict, document: dict) -> list:
    """Every step's result of the gold path, up to the step that ends the episode."""
    sender = ToolCallSender(document, call)
    try:
        GoldPath(sender, gold).play()
    except EpisodeOver:
        pass
    return sender.results


def episode(openenv_url: str, crm_url: str, operator_token: str, pause: float = 0.0, **reset) -> tuple:
    """(the reset's result, every step's result): one episode of the gold path over OpenEnv's
    WebSocket client, `pause` seconds before each step (a model's turn)."""
    with GenericEnvClient(base_url=openenv_url).sync() as client:
        first = client.reset(**reset)
        gold = gold_of(crm_url, operator_token, first.observation["metadata"]["scenario_id"])

        def step(name: str, arguments: dict):
            time.sleep(pause)
            return client.step(call_tool(name, arguments))

        return first, play(step, gold, openapi(crm_url))


def play_on_page(act_with: Callable, first, gold: dict, max_steps: int = 100) -> list:
    """Every step's result of the browser oracle from the reset's result `first`, up to the step that
    ends the episode; `act_with(text)` sends an action's text and returns its StepResult."""
    oracle = OraclePolicy()
    oracle.reset({**gold, "ui_variant": first.observation["metadata"].get("ui_variant")})
    results, result = [], first
    while not result.done and len(results) < max_steps:
        _, text = oracle.act(page_of(result.observation))
        result = act_with(text)
        results.append(result)
    return results


def page_of(observation: dict) -> Observation:
    """A browser-mode observation as the oracle reads it: the element list's text and the last error."""
    return Observation(text=observation["text"], error=(observation.get("error") or {}).get("message"))


def browser_episode(openenv_url: str, crm_url: str, operator_token: str, observations="elements",
                    **reset) -> tuple:
    """(the reset's result, every step's result): one browser-mode episode of the oracle over
    OpenEnv's WebSocket client."""
    with GenericEnvClient(base_url=openenv_url).sync() as client:
        first = client.reset(mode="browser", observations=observations, **reset)
        gold = gold_of(crm_url, operator_token, first.observation["metadata"]["scenario_id"])
        return first, play_on_page(lambda text: client.step(act(text)), first, gold)
