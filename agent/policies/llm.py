"""One client for any OpenAI-compatible endpoint (chat completions and embeddings): retries, token
counts and a replay cache.

Responses are cached on disk under a key of (model, messages, parameters), or (model, inputs) for
embeddings, so a finished run can be replayed offline with identical results; a cached answer costs
no request and no tokens. A request may offer `tools` (the OpenAI chat tool-calling format); the
reply's `tool_calls` come back on the Completion and are cached with it (the tools are part of the
key).
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import openai

from ..json_files import write_json

DEFAULT_TEMPERATURE = 0.3
RETRYABLE = (openai.RateLimitError, openai.APITimeoutError, openai.APIConnectionError, openai.InternalServerError)


class LLMError(RuntimeError):
    """The model could not be reached or refused the request; the message says why."""


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool
    seconds: float
    # [{"id", "type": "function", "function": {"name", "arguments"}}], as the model wrote them
    tool_calls: tuple[dict, ...] = ()


@dataclass(frozen=True)
class Embeddings:
    vectors: list[list[float]]  # one per input, in input order
    prompt_tokens: int
    cached: bool


@dataclass
class Usage:
    """Running totals over every call a client made (cached calls count as calls, not tokens)."""

    calls: int = 0
    cached_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    embedding_calls: int = 0
    embedding_tokens: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, completion: Completion) -> None:
        with self._lock:
            self.calls += 1
            self.cached_calls += completion.cached
            self.prompt_tokens += completion.prompt_tokens
            self.completion_tokens += completion.completion_tokens

    def add_embeddings(self, embeddings: Embeddings) -> None:
        with self._lock:
            self.embedding_calls += 1
            self.embedding_tokens += embeddings.prompt_tokens


class ResponseCache:
    """Completions stored as one JSON file per key; writes are atomic so threads and runs can share it."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    @staticmethod
    def key(request: dict) -> str:
        return hashlib.sha256(json.dumps(request, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        try:
            return json.loads(self._path(key).read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def put(self, key: str, value: dict) -> None:
        write_json(self._path(key), value, indent=None)


class LLMClient:
    """Chat completions with bounded retries on rate limits and time-outs, and a clear error otherwise."""

    def __init__(self, model: str, base_url: str | None = None, api_key: str | None = None,
                 temperature: float = DEFAULT_TEMPERATURE, max_tokens: int = 512,
                 cache_dir: str | Path | None = None, retries: int = 4, backoff_seconds: float = 1.0,
                 timeout_seconds: float = 60.0):
        self.model = model
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        key = api_key or os.environ.get("OPENAI_API_KEY")
        if not key and not self.base_url:
            raise LLMError("No API key: set OPENAI_API_KEY, or give --base-url for a local "
                           "OpenAI-compatible server")
        self.parameters = {"temperature": temperature, "max_tokens": max_tokens}
        self.retries = retries
        self.backoff_seconds = backoff_seconds
        self.cache = ResponseCache(cache_dir) if cache_dir else None
        self.usage = Usage()
        self._client = openai.OpenAI(api_key=key or "not-needed", base_url=self.base_url,
                                     timeout=timeout_seconds, max_retries=0)

    def complete(self, messages: list[dict], tools: list[dict] | None = None) -> Completion:
        """The model's reply to `messages`; with `tools` (OpenAI chat format) it may call them."""
        request = {"model": self.model, "messages": messages, **self.parameters, **({"tools": tools} if tools else {})}
        key = ResponseCache.key(request)
        stored = self.cache.get(key) if self.cache else None
        if stored is not None:
            completion = Completion(stored["text"], 0, 0, cached=True, seconds=0.0,
                                    tool_calls=tuple(stored.get("tool_calls", ())))
        else:
            completion = self._request(request)
            if self.cache:
                self.cache.put(key, {"text": completion.text, "prompt_tokens": completion.prompt_tokens,
                                     "completion_tokens": completion.completion_tokens,
                                     **({"tool_calls": list(completion.tool_calls)} if completion.tool_calls else {})})
        self.usage.add(completion)
        return completion

    def embed(self, texts: list[str], model: str) -> Embeddings:
        """Vectors for `texts` from the `/embeddings` route with this embedding model; the same
        key, endpoint, retries and cache as chat."""
        request = {"route": "embeddings", "model": model, "input": list(texts)}
        key = ResponseCache.key(request)
        stored = self.cache.get(key) if self.cache else None
        if stored is not None:
            embeddings = Embeddings(stored["vectors"], 0, cached=True)
        else:
            response = self._with_retries(lambda: self._client.embeddings.create(
                model=model, input=list(texts), encoding_format="float"))
            vectors = [item.embedding for item in sorted(response.data, key=lambda item: item.index)]
            if len(vectors) != len(texts):
                raise LLMError(f"{self._where()} answered {len(vectors)} embeddings for {len(texts)} inputs")
            embeddings = Embeddings(vectors, getattr(response.usage, "prompt_tokens", 0) or 0, cached=False)
            if self.cache:
                self.cache.put(key, {"vectors": vectors, "prompt_tokens": embeddings.prompt_tokens})
        self.usage.add_embeddings(embeddings)
        return embeddings

    def _request(self, request: dict) -> Completion:
        start = time.perf_counter()
        response = self._with_retries(lambda: self._client.chat.completions.create(**request))
        return self._completion(response, time.perf_counter() - start)

    def _with_retries(self, send):
        """`send()`'s response, retrying rate limits, time-outs and server errors with backoff."""
        for attempt in range(self.retries + 1):
            try:
                return send()
            except openai.AuthenticationError as error:
                raise LLMError(f"The API key was refused by {self._where()}: {error.message}") from error
            except RETRYABLE as error:
                if attempt == self.retries:
                    raise LLMError(f"{self._where()} kept failing after {attempt + 1} tries: {error}") from error
                time.sleep(self.backoff_seconds * 2 ** attempt)
                continue
            except openai.APIStatusError as error:
                raise LLMError(f"{self._where()} refused the request ({error.status_code}): {error.message}") from error
        raise AssertionError("unreachable")

    def _completion(self, response, seconds: float) -> Completion:
        message = response.choices[0].message if response.choices else None
        text = (message.content or "") if message else ""
        usage = response.usage
        return Completion(text, getattr(usage, "prompt_tokens", 0) or 0,
                          getattr(usage, "completion_tokens", 0) or 0, cached=False, seconds=seconds,
                          tool_calls=_tool_calls(message))

    def _where(self) -> str:
        return self.base_url or "the OpenAI API"


def _tool_calls(message) -> tuple[dict, ...]:
    """The reply's function tool calls as plain dicts, their arguments as the model wrote them (text
    that may not even be JSON: the caller judges it)."""
    calls = getattr(message, "tool_calls", None) or ()
    return tuple({"id": call.id, "type": "function",
                  "function": {"name": call.function.name, "arguments": call.function.arguments}}
                 for call in calls if getattr(call, "function", None) is not None)
