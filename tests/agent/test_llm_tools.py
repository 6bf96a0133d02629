"""Tool calling through the OpenAI client against the fake server: tools in the request, the reply's
tool calls (arguments as the model wrote them), usage, the cache keyed by the tools too, and the
fake server refusing malformed tools and tool messages as OpenAI does."""
from __future__ import annotations

import pytest

from agent.policies.llm import LLMClient, LLMError
from tests.fake_openai import FakeOpenAIServer

TOOL = {"type": "function", "function": {"name": "get_booking", "description": "Look a booking up",
                                         "parameters": {"type": "object", "properties": {"code": {"type": "string"}},
                                                        "required": ["code"]}}}
MESSAGES = [{"role": "system", "content": "You are an airline agent."}, {"role": "user", "content": "Find ABCDEF."}]
CALL = {"tool_calls": [{"name": "get_booking", "arguments": {"code": "ABCDEF"}}], "content": "Looking it up."}


def test_tool_calls_come_back_with_their_arguments_as_written():
    with FakeOpenAIServer([CALL, {"tool_calls": [{"name": "get_booking", "arguments": "{not json"}]}]) as server:
        client = LLMClient("m", base_url=server.base_url, api_key="k")
        first = client.complete(MESSAGES, [TOOL])
        second = client.complete(MESSAGES + [{"role": "user", "content": "again"}], [TOOL])
    assert server.requests[0]["tools"] == [TOOL]
    assert first.text == "Looking it up."
    assert first.tool_calls == ({"id": "call_1_0", "type": "function",
                                 "function": {"name": "get_booking", "arguments": '{"code": "ABCDEF"}'}},)
    assert second.tool_calls[0]["function"]["arguments"] == "{not json"
    assert client.usage.completion_tokens == server.usage["completion_tokens"] > 0
    assert first.prompt_tokens > 0


def test_a_reply_without_tool_calls_has_none():
    with FakeOpenAIServer(["All done."]) as server:
        completion = LLMClient("m", base_url=server.base_url, api_key="k").complete(MESSAGES, [TOOL])
    assert (completion.text, completion.tool_calls) == ("All done.", ())


def test_the_cache_keeps_tool_calls_and_is_keyed_by_the_tools(tmp_path):
    with FakeOpenAIServer([CALL, "without tools"]) as server:
        client = LLMClient("m", base_url=server.base_url, api_key="k", cache_dir=tmp_path)
        asked = client.complete(MESSAGES, [TOOL])
        replayed = client.complete(MESSAGES, [TOOL])
        other = client.complete(MESSAGES)  # no tools: another request
    assert len(server.requests) == 2
    assert replayed.cached and replayed.tool_calls == asked.tool_calls and replayed.text == asked.text
    assert (replayed.prompt_tokens, replayed.completion_tokens) == (0, 0)
    assert other.text == "without tools" and other.tool_calls == ()


@pytest.mark.parametrize("tools, messages, problem", [
    ([{"type": "function", "function": {"name": "get booking", "description": "x", "parameters": {"type": "object"}}}],
     MESSAGES, "needs a name of [a-zA-Z0-9_-] and a description"),
    ([{"type": "function", "function": {"name": "get_booking", "description": "x", "parameters": {"type": "nothing"}}}],
     MESSAGES, "the parameters of get_booking are not a JSON schema"),
    ([TOOL], MESSAGES + [{"role": "tool", "tool_call_id": "call_9", "content": "{}"}],
     "a tool message answers 'call_9', which no preceding tool call has"),
    ([TOOL], MESSAGES + [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_booking", "arguments": "{}"}}]},
        {"role": "user", "content": "and?"}], "the tool calls ['call_1'] have no tool message answering them"),
])
def test_the_fake_server_refuses_what_openai_refuses(tools, messages, problem):
    with FakeOpenAIServer(["never sent"]) as server:
        client = LLMClient("m", base_url=server.base_url, api_key="k")
        with pytest.raises(LLMError, match="refused the request \\(400\\)") as refused:
            client.complete(messages, tools)
    assert problem in str(refused.value) and server.requests == []
