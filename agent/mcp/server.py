"""The MCP server of one scenario, on the SDK's low-level `Server` (the tools' schemas come from the
OpenAPI document, not from Python signatures).

- Tools: the CRM tools (agent/crm/tools.py), each run inside the scenario. A call the API refuses, or
  one whose arguments do not fit, comes back as a tool result with `isError` and the API's
  message; the server never fails a call.
- Resources: `airlinecrm://policy` (the airline's policy document, prompts/toolcall/policy.txt)
  and, when the server made the scenario itself, `airlinecrm://scenario/<id>` (its task, seed,
  instruction, conversation and where /evaluate scores it).
- Prompts: `task`, when the server made the scenario: the customer's request (instruction and
  conversation) to hand to a model.
"""
from __future__ import annotations

import json

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from crm_app.version import VERSION

from ..crm.tools import ScenarioTools
from ..policies.prompting import conversation_text, load_prompt, render, task_text

POLICY_URI = "airlinecrm://policy"
TASK_PROMPT = "task"


def scenario_uri(scenario_id: str) -> str:
    return f"airlinecrm://scenario/{scenario_id}"


def evaluate_url(tools: ScenarioTools) -> str:
    """Where /evaluate scores the tools' scenario."""
    return f"{tools.server_url}/evaluate?scenario={tools.scenario_id}"


def make_server(tools: ScenarioTools, scenario: dict | None = None) -> Server:
    """The server for `tools`' scenario; `scenario` (the /generate-random-scenario answer) when the
    server made it, so that it can tell its client the task."""
    score_url = evaluate_url(tools)
    definitions = [types.Tool(name=tool.name, description=tool.description, input_schema=tool.parameters)
                   for tool in tools.tools.values()]
    resources = [types.Resource(uri=POLICY_URI, name="policy", mime_type="text/plain",
                                description="The airline's policy: what can be changed, what must be confirmed")]
    contents = {POLICY_URI: load_prompt("toolcall/policy")}
    if scenario:
        uri = scenario_uri(tools.scenario_id)
        resources.append(types.Resource(uri=uri, name="scenario", mime_type="application/json",
                                        description=f"Scenario {tools.scenario_id}: its task and instruction"))
        contents[uri] = json.dumps({"id": tools.scenario_id, "task": scenario.get("scenario"), "seed": scenario.get("seed"),
                                    "instruction": scenario.get("instruction"), "conversation": scenario.get("conversation"),
                                    "evaluate": score_url}, indent=1, ensure_ascii=False)

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=definitions)

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        result = await anyio.to_thread.run_sync(tools.call, params.name, params.arguments or {})
        structured = result.body if not result.is_error and isinstance(result.body, dict) else None
        return types.CallToolResult(content=[types.TextContent(type="text", text=result.text())],
                                    structured_content=structured, is_error=result.is_error)

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=resources)

    async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri not in contents:
            raise MCPError(INVALID_PARAMS, f"no resource {uri}; the resources: {', '.join(contents)}")
        kind = next(resource.mime_type for resource in resources if resource.uri == uri)
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=kind, text=contents[uri])])

    handlers = {"on_list_tools": list_tools, "on_call_tool": call_tool, "on_list_resources": list_resources,
                "on_read_resource": read_resource}
    if scenario:
        handlers.update(_task_prompt(scenario))
    instructions = (f"Tools of the AirlineCRM JSON API, bound to scenario {tools.scenario_id} of the CRM at "
                    f"{tools.server_url}: every call acts on that scenario's data only. Follow the airline's "
                    f"policy ({POLICY_URI}). When the task is done, {score_url} scores it.")
    return Server("airlinecrm", version=VERSION, instructions=instructions, **handlers)


def _task_prompt(scenario: dict) -> dict:
    """The `task` prompt: the customer's request, as the toolcall method gives it to its model."""
    text = render("toolcall/task", task=task_text(scenario), conversation=conversation_text(scenario))
    prompt = types.Prompt(name=TASK_PROMPT, description=f"The customer's request of scenario {scenario['id']} "
                                                        f"({scenario.get('scenario')}, seed {scenario.get('seed')})")

    async def list_prompts(ctx, params) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[prompt])

    async def get_prompt(ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != TASK_PROMPT:
            raise MCPError(INVALID_PARAMS, f"no prompt {params.name!r}; the prompts: {TASK_PROMPT}")
        return types.GetPromptResult(description=prompt.description, messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))])

    return {"on_list_prompts": list_prompts, "on_get_prompt": get_prompt}
