"""The OpenAI client over real HTTP against the fake server: usage, retries, errors, cache, for chat
completions and for embeddings."""
import math

import pytest

from agent.policies.llm import LLMClient, LLMError
from tests.fake_openai import FakeOpenAIServer, embedding_vector

MESSAGES = [{"role": "system", "content": "You operate a CRM."}, {"role": "user", "content": "Go."}]


def test_completion_text_and_usage_come_from_the_server():
    with FakeOpenAIServer(["REASON: start\nACTION: CLICK 3", "ACTION: STOP [done]"]) as server:
        client = LLMClient("fake-model", base_url=server.base_url, api_key="k")
        first = client.complete(MESSAGES)
        second = client.complete(MESSAGES + [{"role": "assistant", "content": first.text}])
    assert first.text == "REASON: start\nACTION: CLICK 3"
    assert second.text == "ACTION: STOP [done]"
    assert server.requests[0]["model"] == "fake-model"
    assert server.requests[0]["temperature"] == 0.3
    assert client.usage.prompt_tokens == server.usage["prompt_tokens"]
    assert client.usage.completion_tokens == server.usage["completion_tokens"]
    assert client.usage.calls == 2


def test_rate_limits_are_retried_with_backoff():
    with FakeOpenAIServer([{"status": 429, "error": "slow down"}, {"status": 503}, "ACTION: CLICK 1"]) as server:
        client = LLMClient("m", base_url=server.base_url, api_key="k", backoff_seconds=0.01)
        assert client.complete(MESSAGES).text == "ACTION: CLICK 1"
    assert len(server.requests) == 3


def test_retries_are_bounded():
    with FakeOpenAIServer([{"status": 429}] * 10) as server:
        client = LLMClient("m", base_url=server.base_url, api_key="k", retries=2, backoff_seconds=0.01)
        with pytest.raises(LLMError, match="kept failing after 3 tries"):
            client.complete(MESSAGES)
    assert len(server.requests) == 3


def test_a_bad_key_is_a_clear_error_without_retries():
    with FakeOpenAIServer([{"status": 401, "error": "Incorrect API key provided"}]) as server:
        client = LLMClient("m", base_url=server.base_url, api_key="wrong")
        with pytest.raises(LLMError, match="The API key was refused .*Incorrect API key provided"):
            client.complete(MESSAGES)
    assert len(server.requests) == 1


def test_no_key_and_no_server_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(LLMError, match="set OPENAI_API_KEY"):
        LLMClient("m")


def test_second_run_is_served_from_the_cache(tmp_path):
    with FakeOpenAIServer(["ACTION: CLICK 7"]) as server:
        first = LLMClient("m", base_url=server.base_url, api_key="k", cache_dir=tmp_path).complete(MESSAGES)
    with FakeOpenAIServer([]) as silent:
        replay = LLMClient("m", base_url=silent.base_url, api_key="k", cache_dir=tmp_path)
        again = replay.complete(MESSAGES)
    assert (again.text, again.cached, first.cached) == ("ACTION: CLICK 7", True, False)
    assert silent.requests == []
    assert replay.usage.cached_calls == 1


def test_cache_key_includes_model_and_parameters(tmp_path):
    with FakeOpenAIServer(["a", "b", "c"]) as server:
        LLMClient("m", base_url=server.base_url, api_key="k", cache_dir=tmp_path).complete(MESSAGES)
        LLMClient("m2", base_url=server.base_url, api_key="k", cache_dir=tmp_path).complete(MESSAGES)
        LLMClient("m", base_url=server.base_url, api_key="k", cache_dir=tmp_path, temperature=0).complete(MESSAGES)
    assert len(server.requests) == 3


def test_embeddings_come_from_the_embeddings_route_in_input_order_with_their_tokens():
    texts = ["Cancel the booking WQCWGR", "Book a flight from JFK to LAX"]
    with FakeOpenAIServer([]) as server:
        client = LLMClient("chat-model", base_url=server.base_url, api_key="k")
        result = client.embed(texts, "fake-embedding")
    for vector, text in zip(result.vectors, texts, strict=True):
        assert vector == pytest.approx(embedding_vector(text))
    assert math.isclose(sum(x * x for x in result.vectors[0]), 1.0, rel_tol=1e-6)
    assert server.embedding_requests[0]["model"] == "fake-embedding" and server.requests == []
    assert client.usage.embedding_tokens == result.prompt_tokens == server.usage["embedding_tokens"] > 0
    assert (client.usage.embedding_calls, client.usage.calls) == (1, 0)


def test_embeddings_are_retried_and_cached_like_chat(tmp_path):
    with FakeOpenAIServer([], embedding_errors=[{"status": 429}, {"status": 503}]) as server:
        client = LLMClient("m", base_url=server.base_url, api_key="k", backoff_seconds=0.01, cache_dir=tmp_path)
        first = client.embed(["Find booking ABC123"], "e")
    assert len(server.embedding_requests) == 1 and not first.cached  # the two errors were answered first
    with FakeOpenAIServer([]) as silent:
        again = LLMClient("m", base_url=silent.base_url, api_key="k", cache_dir=tmp_path).embed(["Find booking ABC123"], "e")
    assert silent.embedding_requests == [] and again.cached and again.vectors == first.vectors
    assert again.prompt_tokens == 0


def test_a_refused_embedding_model_is_a_clear_error():
    with FakeOpenAIServer([], embedding_errors=[{"status": 404, "error": "The model 'nope' does not exist"}]) as server:
        with pytest.raises(LLMError, match="refused the request \\(404\\): .*The model 'nope' does not exist"):
            LLMClient("m", base_url=server.base_url, api_key="k").embed(["x"], "nope")
