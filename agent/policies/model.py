"""The model-call bookkeeping shared by the LLM policies: one client, the usage since reset, and
what each step's calls cost and said (prompt, reply, tokens, time) for the trajectory.

A call's prompt is recorded as its user message plus the id of its system prompt; each system
prompt's text is written once per episode, in the trace of the step that first used it
(`system_prompts`), so a trajectory does not repeat the long instructions on every call."""
from __future__ import annotations

import base64
import hashlib

from .llm import DEFAULT_TEMPERATURE, Completion, Embeddings, LLMClient, LLMError


def make_client(model: str | None = None, base_url: str | None = None, api_key: str | None = None,
                cache_dir: str | None = None, temperature: float = DEFAULT_TEMPERATURE, **_ignored) -> LLMClient:
    """There is no default model on purpose: the papers' models are retired, and a silently chosen
    one would make a table whose model nobody asked for."""
    if not model:
        raise LLMError("the LLM methods need a model: pass --model NAME or set OPENAI_MODEL "
                       "(e.g. gpt-4o-mini, or the name a local server serves)")
    return LLMClient(model, base_url=base_url, api_key=api_key, cache_dir=cache_dir, temperature=temperature)


def user_content(text: str, images: list[bytes] = ()) -> str | list[dict]:
    """A user message's content: the text alone, or (with images) the OpenAI chat format's content
    parts, the text first and each PNG as a base64 data URL. Image tokens are whatever the server
    counts them as in its usage answer."""
    if not images:
        return text
    return [{"type": "text", "text": text}] + [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode("ascii")}}
        for png in images]


class ModelCalls:
    """Asks the model and keeps the counts: `usage()` since reset, `take_step_log()` per step."""

    def __init__(self, client: LLMClient):
        self.client = client
        self.reset()

    def reset(self) -> None:
        self._totals = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0, "cached_calls": 0,
                        "embedding_tokens": 0, "embedding_calls": 0}
        self._step_calls: list[dict] = []
        self._systems_seen: set[str] = set()
        self._step_systems: dict[str, str] = {}

    def ask(self, system: str, user: str, caller: str = "", images: list[bytes] = ()) -> Completion:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user_content(user, images)}]
        completion = self.client.complete(messages)
        self._count(completion)
        self._step_calls.append({"policy": caller, "prompt_chars": len(system) + len(user), "images": len(images),
                                 **self._call_record(completion, system, user), "reply": completion.text})
        return completion

    def chat(self, messages: list[dict], tools: list[dict], caller: str = "", new: str = "") -> Completion:
        """A turn of a conversation offering `tools` (OpenAI chat format): `messages` is the whole
        conversation, its system message first; `new` is what was added since the previous turn (the
        user's message, or the tool results), recorded as the call's prompt. The reply's text and
        its tool calls are recorded as written."""
        completion = self.client.complete(messages, tools)
        self._count(completion)
        self._step_calls.append({"policy": caller, "prompt_chars": sum(map(_chars, messages)),
                                 **self._call_record(completion, messages[0]["content"], new),
                                 "reply": completion.text, "tool_calls": list(completion.tool_calls)})
        return completion

    def _count(self, completion: Completion) -> None:
        self._totals["prompt_tokens"] += completion.prompt_tokens
        self._totals["completion_tokens"] += completion.completion_tokens
        self._totals["calls"] += 1
        self._totals["cached_calls"] += completion.cached

    def _call_record(self, completion: Completion, system: str, user: str) -> dict:
        return {"prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens,
                "cached": completion.cached, "seconds": round(completion.seconds, 3),
                "system_prompt": self._system_id(system), "user_prompt": user}

    def embed(self, texts: list[str], model: str, caller: str = "") -> Embeddings:
        """Embedding vectors from the same client (key, endpoint, retries, cache); counted apart
        from chat tokens."""
        result = self.client.embed(texts, model)
        self._totals["embedding_tokens"] += result.prompt_tokens
        self._totals["embedding_calls"] += 1
        self._step_calls.append({"policy": caller, "embedding_model": model, "inputs": len(texts),
                                 "prompt_chars": sum(map(len, texts)), "prompt_tokens": result.prompt_tokens,
                                 "cached": result.cached})
        return result

    def _system_id(self, system: str) -> str:
        key = hashlib.sha256(system.encode()).hexdigest()[:12]
        if key not in self._systems_seen:
            self._systems_seen.add(key)
            self._step_systems[key] = system
        return key

    def usage(self) -> dict:
        return dict(self._totals)

    def take_step_log(self) -> dict:
        """The calls made since the last take: prompt size (characters), the calls themselves, and
        the system prompts they used for the first time in this episode."""
        calls, self._step_calls = self._step_calls, []
        systems, self._step_systems = self._step_systems, {}
        return {"prompt_chars": sum(c["prompt_chars"] for c in calls), "model_calls": calls,
                **({"system_prompts": systems} if systems else {})}


def _chars(message: dict) -> int:
    """A chat message's size in characters: its text and its tool calls."""
    calls = message.get("tool_calls") or []
    return len(str(message.get("content") or "")) + sum(len(str(call.get("function"))) for call in calls)
