"""The CRM's JSON API as tools for a model, all bound to one scenario.

The definitions are generated from the server's OpenAPI document (`GET /openapi.json`): one tool
per operation of TOOL_NAMES, named by its operationId, described by its summary and description
(written there for a model), with one flat JSON schema for its arguments: the path and query
parameters and the request body's properties side by side. What a model must not set is left out:
the scenario (every call carries the scenario's `X-Scenario-Id`) and the `Idempotency-Key` (each
write call gets a new one here, so a write happens once).

    tools = ScenarioTools("http://127.0.0.1:5000", scenario_id)
    tools.definitions()                      # OpenAI chat `tools`
    result = tools.call("get_booking", {"code": "WQCWGR"})
    result.is_error, result.text()

A call never raises for what the model sent: an unknown tool, arguments that are not a JSON object,
an unknown or missing argument, the API's 4xx answer, or a server that cannot be reached all come
back as a result with an `error` (the API's own message for the API's errors).

A tool call travels as one line of text, `name {"argument": value}` (`tool_action`,
`parse_tool_action`): the action of the API environment (agent/env/api_env.py).
"""
from __future__ import annotations

import copy
import json
import urllib.parse
import uuid
from dataclasses import dataclass, replace

from crm_app.http_client import http_sender
from crm_app.services.fares import FARES

# The operations a model may call. quote_flight_change is among them because change_flights'
# description sends the model to it for the fare difference.
TOOL_NAMES = ("search_airports", "search_flights", "get_quote", "book_flight", "get_booking", "cancel_booking",
              "update_passenger", "change_flights", "quote_flight_change")
# On a call (the hard suite): speaking to the customer, finding a booking without its code, and
# booking in a fare family (an argument the API takes, which the papers' tools never offered).
CALL_TOOL_NAMES = ("message_customer", "search_bookings", "quote_fare_upgrade", "upgrade_fare",
                   "transfer_to_supervisor")
CALL_ARGUMENTS = {"book_flight": {"fare": {"type": "string", "enum": list(FARES),
                                           "description": "The fare family (Standard when left out): what a later "
                                                          "change or cancellation allows, as the policy says"}}}
# In a suite whose policy lives in a knowledge base (the expert suite, issue 50): finding the rule.
KNOWLEDGE_TOOL_NAMES = ("search_knowledge_base", "read_article")
SCENARIO_HEADER = "X-Scenario-Id"
IDEMPOTENCY_HEADER = "Idempotency-Key"
HIDDEN_QUERY = ("scenario",)  # the scenario is bound by the header, never chosen by the model


class ToolsUnavailable(RuntimeError):
    """The tools cannot be made: the server cannot be reached or has no such operations."""


class ToolCallError(ValueError):
    """A tool call that cannot be sent as it is (unknown tool, wrong arguments); the message says why."""


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict  # JSON schema of the arguments
    method: str
    path: str  # the route as the document names it: /api/bookings/{code}
    path_params: tuple[str, ...]
    query_params: tuple[str, ...]
    body_params: tuple[str, ...]

    def definition(self) -> dict:
        """The tool in the OpenAI chat format (the `tools` of a request)."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.parameters}}

    @property
    def writes(self) -> bool:
        return self.method != "GET"

    def request(self, arguments) -> tuple[str, str, dict | None]:
        """(method, path with query, JSON body) for these arguments; ToolCallError when they do not fit."""
        if not isinstance(arguments, dict):
            raise ToolCallError(f"the arguments of {self.name} must be a JSON object, not {_kind(arguments)}")
        known = self.parameters["properties"]
        unknown = [name for name in arguments if name not in known]
        if unknown:
            raise ToolCallError(f"{self.name} takes no argument {_names(unknown)}; its arguments: {_names(known)}")
        missing = [name for name in self.parameters["required"] if arguments.get(name) is None
                   or (name in self.path_params and not str(arguments[name]).strip())]  # no path without it
        if missing:
            raise ToolCallError(f"{self.name} needs the argument {_names(missing)}")
        path = self.path
        for name in self.path_params:
            path = path.replace("{" + name + "}", urllib.parse.quote(_scalar(name, arguments[name]), safe=""))
        query = {name: _scalar(name, arguments[name]) for name in self.query_params if arguments.get(name) is not None}
        body = {name: arguments[name] for name in self.body_params if name in arguments}
        target = path + (f"?{urllib.parse.urlencode(query)}" if query else "")
        return self.method, target, (body if self.body_params else None)


@dataclass(frozen=True)
class ToolResult:
    tool: str
    arguments: object
    status: int | None  # the API's HTTP status; None when the call never reached the API
    body: dict  # the API's JSON answer ({} when it never reached the API)
    error: str | None = None  # why the call failed, in words (the API's message for its errors)

    @property
    def is_error(self) -> bool:
        return self.error is not None

    def text(self) -> str:
        """What the model reads: the API's JSON answer, or the error."""
        if self.error is not None:
            return f"Error{f' {self.status}' if self.status else ''}: {self.error}"
        return json.dumps(self.body, ensure_ascii=False)

    def record(self) -> dict:
        """The call and its result as a trajectory keeps them."""
        return {"tool": self.tool, "arguments": self.arguments, "status": self.status, "error": self.error,
                "text": self.text()}


def tool_names(on_call: bool = False, knowledge_base: bool = False) -> tuple[str, ...]:
    return TOOL_NAMES + (KNOWLEDGE_TOOL_NAMES if knowledge_base else ()) + (CALL_TOOL_NAMES if on_call else ())


def tools_from_openapi(document: dict, names=TOOL_NAMES, extra_arguments: dict | None = None) -> dict[str, Tool]:
    """The tools named, from the OpenAPI document, with any `extra_arguments` (tool -> body
    properties) added; ToolsUnavailable names any the document lacks."""
    operations = {op.get("operationId"): (method.upper(), path, op)
                  for path, methods in document.get("paths", {}).items() for method, op in methods.items()}
    missing = [name for name in names if name not in operations]
    if missing:
        raise ToolsUnavailable(f"the OpenAPI document has no operation {_names(missing)}")
    tools = {name: _tool(name, *operations[name], document.get("components", {})) for name in names}
    for name, arguments in (extra_arguments or {}).items():
        if name in tools:
            tools[name] = _with_body_arguments(tools[name], arguments)
    return tools


def _with_body_arguments(tool: Tool, arguments: dict) -> Tool:
    properties = {**tool.parameters["properties"], **arguments}
    return replace(tool, parameters={**tool.parameters, "properties": properties},
                   body_params=tool.body_params + tuple(arguments))


def _tool(name: str, method: str, path: str, operation: dict, components: dict) -> Tool:
    properties, required, where = {}, [], {"path": [], "query": [], "body": []}
    for parameter in operation.get("parameters", []):
        parameter = _resolve(parameter, components)
        if parameter["in"] not in ("path", "query") or (parameter["in"] == "query" and parameter["name"] in HIDDEN_QUERY):
            continue  # headers (scenario, Idempotency-Key) and the scenario query are the tool layer's
        properties[parameter["name"]] = {**parameter.get("schema", {}), "description": parameter["description"]}
        where[parameter["in"]].append(parameter["name"])
        if parameter.get("required"):
            required.append(parameter["name"])
    body = _body_schema(operation, components)
    for key, schema in body.get("properties", {}).items():
        if key in properties:
            raise ToolsUnavailable(f"{name}: the body's {key!r} has the name of a parameter")
        properties[key] = schema
        where["body"].append(key)
    required += body.get("required", [])
    description = f"{operation['summary']}. {operation.get('description', '')}".strip()
    parameters = {"type": "object", "properties": properties, "required": required, "additionalProperties": False}
    return Tool(name, description, parameters, method, path, *(tuple(where[k]) for k in ("path", "query", "body")))


def _body_schema(operation: dict, components: dict) -> dict:
    """The JSON body's schema with its references resolved; of alternatives (oneOf), the first, the
    plain form (update_passenger also takes its fields wrapped in {"passenger": ...})."""
    content = (operation.get("requestBody") or {}).get("content", {}).get("application/json")
    if not content:
        return {}
    schema = _resolve(content["schema"], components)
    return _resolve(schema["oneOf"][0], components) if "oneOf" in schema else schema


def _resolve(node, components: dict):
    """`node` with every `$ref` into the components replaced by a copy of what it names."""
    if isinstance(node, list):
        return [_resolve(item, components) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        kind, name = node["$ref"].split("/")[-2:]
        return _resolve(copy.deepcopy(components[kind][name]), components)
    return {key: _resolve(value, components) for key, value in node.items()}


class ScenarioTools:
    """The tools, run against the CRM at `server_url` inside one scenario."""

    def __init__(self, server_url: str, scenario_id: str, document: dict | None = None, timeout: float = 30.0,
                 on_call: bool = False, knowledge_base: bool = False):
        self.server_url = server_url.rstrip("/")
        self.scenario_id = scenario_id
        document = document if document is not None else fetch_openapi(self.server_url, timeout)
        self.tools = tools_from_openapi(document, tool_names(on_call, knowledge_base), CALL_ARGUMENTS if on_call else None)
        self._send = http_sender(self.server_url, timeout, {SCENARIO_HEADER: scenario_id})

    def definitions(self) -> list[dict]:
        return [tool.definition() for tool in self.tools.values()]

    def call(self, name: str, arguments) -> ToolResult:
        tool = self.tools.get(name)
        try:
            if tool is None:
                raise ToolCallError(f"there is no tool {name!r}; the tools: {_names(self.tools)}")
            method, path, body = tool.request(arguments)
        except ToolCallError as error:
            return ToolResult(name, arguments, None, {}, str(error))
        headers = {IDEMPOTENCY_HEADER: str(uuid.uuid4())} if tool.writes else None
        try:
            status, answer = self._send(method, path, body, headers=headers)
        except OSError as error:  # urllib's URLError among them
            return ToolResult(name, arguments, None, {}, f"the {unreachable(self.server_url, error)}")
        return ToolResult(name, arguments, status, answer, _api_error(answer) if status >= 400 else None)


def fetch_openapi(server_url: str, timeout: float = 30.0) -> dict:
    """The server's OpenAPI document; ToolsUnavailable saying why it cannot be had."""
    try:
        status, document = http_sender(server_url, timeout)("GET", "/openapi.json")
    except OSError as error:
        raise ToolsUnavailable(f"The {unreachable(server_url, error)}") from None
    if status != 200 or "paths" not in document:
        raise ToolsUnavailable(f"{server_url}/openapi.json answered {status}, not an OpenAPI document")
    return document


def unreachable(server_url: str, error: OSError) -> str:
    """Why a request to the CRM got no answer, in words (after "the "/"The ")."""
    return f"CRM server at {server_url} cannot be reached: {getattr(error, 'reason', error)}"


def _api_error(answer: dict) -> str:
    """The API's error message, with its wrong fields."""
    message = str(answer.get("error") or "the request was refused")
    fields = answer.get("fields")
    if isinstance(fields, dict) and fields:
        message += " (" + "; ".join(f"{name}: {text}" for name, text in fields.items()) + ")"
    return message


def tool_action(name: str, arguments) -> str:
    """A tool call as one line of text: `name {"argument": value}`."""
    return f"{name} {json.dumps(arguments, ensure_ascii=False)}"


def parse_tool_action(text: str) -> tuple[str, object]:
    """(tool name, arguments) of a `tool_action` line; ToolCallError when it is not one."""
    name, _, rest = text.strip().partition(" ")
    try:
        arguments = json.loads(rest) if rest.strip() else {}
    except ValueError as error:
        raise ToolCallError(f"the arguments of {name} are not valid JSON ({error})") from None
    return name, arguments


def _scalar(name: str, value) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ToolCallError(f"the argument {name!r} must be a string or a number, not {_kind(value)}")
    return str(value)


def _kind(value) -> str:
    return {dict: "an object", list: "a list", bool: "true or false", type(None): "null"}.get(type(value), type(value).__name__)


def _names(names) -> str:
    return ", ".join(map(str, names))
