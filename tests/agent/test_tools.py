"""agent/crm/tools.py: tool definitions generated from the OpenAPI document, and calls run inside one
scenario that never raise for what a model sends (unknown tools, wrong arguments, the API's errors,
a server that is gone), a new Idempotency-Key per write call, and the action text of a call."""
from __future__ import annotations

import json
import socket

import pytest

from agent.crm.tools import (TOOL_NAMES, ScenarioTools, ToolCallError, ToolsUnavailable, fetch_openapi, parse_tool_action,
                         tool_action, tools_from_openapi)
from crm_app.http_client import http_sender
from crm_app.openapi import document


def test_one_tool_per_operation_with_the_documents_words():
    tools = tools_from_openapi(document())
    assert list(tools) == list(TOOL_NAMES)
    operation = document()["paths"]["/api/flights/search"]["get"]
    search = tools["search_flights"]
    assert search.description == f"{operation['summary']}. {operation['description']}"
    assert search.parameters["properties"]["from"]["description"] == operation["parameters"][0]["description"]
    assert (search.method, search.path, search.query_params) == ("GET", "/api/flights/search", ("from", "to", "date", "return"))
    definition = tools["get_booking"].definition()
    assert definition["type"] == "function" and definition["function"]["name"] == "get_booking"


def test_parameters_and_body_make_one_flat_schema_without_what_the_tool_layer_sets():
    tools = tools_from_openapi(document())
    cancel = tools["cancel_booking"]
    assert cancel.parameters["required"] == ["code", "confirmation_code"]
    assert (cancel.path_params, cancel.body_params) == (("code",), ("confirmation_code",))
    update = tools["update_passenger"]  # the body's plain form of its two
    assert list(update.parameters["properties"]) == ["code", "title", "first_name", "last_name", "email", "gender",
                                                     "date_of_birth"]
    assert update.parameters["properties"]["title"]["enum"] == ["Mr", "Mrs", "Ms", "Miss", "Dr"]
    text = json.dumps([tool.definition() for tool in tools.values()])
    assert "$ref" not in text and "X-Scenario-Id" not in text and "Idempotency" not in text
    assert all("scenario" not in tool.parameters["properties"] for tool in tools.values())


def test_a_document_without_an_operation_is_refused():
    broken = {**document(), "paths": {k: v for k, v in document()["paths"].items() if k != "/api/quote"}}
    with pytest.raises(ToolsUnavailable, match="the OpenAPI document has no operation get_quote"):
        tools_from_openapi(broken)


@pytest.mark.parametrize("tool, arguments, message", [
    ("fly", {}, "there is no tool 'fly'; the tools: search_airports, search_flights"),
    ("get_booking", ["ABCDEF"], "the arguments of get_booking must be a JSON object, not a list"),
    ("get_booking", {"code": "ABCDEF", "scenario": "x"}, "get_booking takes no argument scenario; its arguments: code"),
    ("search_flights", {"from": "JFK"}, "search_flights needs the argument to, date"),
    ("get_booking", {"code": {"a": 1}}, "the argument 'code' must be a string or a number, not an object"),
    ("get_booking", {"code": " "}, "get_booking needs the argument code"),
])
def test_a_call_that_does_not_fit_is_a_result_with_an_error(tool, arguments, message):
    tools = ScenarioTools("http://127.0.0.1:9", "abc", document())  # never reached: the call is refused first
    result = tools.call(tool, arguments)
    assert result.is_error and result.status is None and result.error.startswith(message)
    assert result.text() == f"Error: {result.error}"


def test_calls_act_inside_the_scenario_and_each_write_is_its_own(live_server):
    send = http_sender(live_server)
    _, scenario = send("GET", "/generate-random-scenario?task=TASK_CANCEL_FLIGHT&seed=41")
    _, other = send("GET", "/generate-random-scenario?task=TASK_FIND_BOOKING&seed=41")
    code = scenario["details"]["confirmation-code"]
    tools = ScenarioTools(live_server, scenario["id"])
    assert tools.call("get_booking", {"code": other["details"]["confirmation-code"]}).status == 404
    first = tools.call("cancel_booking", {"code": code.lower(), "confirmation_code": code})
    again = tools.call("cancel_booking", {"code": code, "confirmation_code": code})
    assert (first.status, first.body["booking"]["status"]) == (200, "Cancelled")
    assert again.status == 409  # a new Idempotency-Key: not the first answer replayed
    assert again.text() == f"Error 409: {again.body['error']}" and again.error == again.body["error"]
    found = tools.call("search_airports", {"q": "fort lauderdale"})
    assert [a["code"] for a in found.body["airports"]] == ["FLL"] and json.loads(found.text()) == found.body
    _, score = send("GET", f"/evaluate?scenario={scenario['id']}")
    assert (score["success"], score["modality"], score["num_actions"]) == (1, "api", 3)


def test_a_server_that_is_gone_is_a_result_with_an_error_not_an_exception():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = ScenarioTools(f"http://127.0.0.1:{port}", "abc", document()).call("get_booking", {"code": "ABCDEF"})
    assert result.is_error and result.error.startswith(f"the CRM server at http://127.0.0.1:{port} cannot be reached")
    with pytest.raises(ToolsUnavailable, match="cannot be reached"):
        fetch_openapi(f"http://127.0.0.1:{port}")


def test_a_call_as_action_text_and_back():
    text = tool_action("search_flights", {"from": "JFK", "date": "2026-07-07"})
    assert text == 'search_flights {"from": "JFK", "date": "2026-07-07"}'
    assert parse_tool_action(text) == ("search_flights", {"from": "JFK", "date": "2026-07-07"})
    assert parse_tool_action("search_airports") == ("search_airports", {})
    with pytest.raises(ToolCallError, match="the arguments of get_booking are not valid JSON"):
        parse_tool_action('get_booking {"code": ')
