"""The model-call bookkeeping shared by the LLM policies: one client, the usage since reset, and
what each step's calls cost (prompt size, tokens) for the trajectory."""
from __future__ import annotations

from ..llm import DEFAULT_TEMPERATURE, Completion, Embeddings, LLMClient, LLMError


def make_client(model: str | None = None, base_url: str | None = None, api_key: str | None = None,
                cache_dir: str | None = None, temperature: float = DEFAULT_TEMPERATURE, **_ignored) -> LLMClient:
    """There is no default model on purpose: the papers' models are retired, and a silently chosen
    one would make a table whose model nobody asked for."""
    if not model:
        raise LLMError("the LLM methods need a model: pass --model NAME or set OPENAI_MODEL "
                       "(e.g. gpt-4o-mini, or the name a local server serves)")
    return LLMClient(model, base_url=base_url, api_key=api_key, cache_dir=cache_dir, temperature=temperature)


class ModelCalls:
    """Asks the model and keeps the counts: `usage()` since reset, `take_step_log()` per step."""

    def __init__(self, client: LLMClient):
        self.client = client
        self.reset()

    def reset(self) -> None:
        self._totals = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0, "cached_calls": 0,
                        "embedding_tokens": 0, "embedding_calls": 0}
        self._step_calls: list[dict] = []

    def ask(self, system: str, user: str, caller: str = "") -> Completion:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        completion = self.client.complete(messages)
        self._totals["prompt_tokens"] += completion.prompt_tokens
        self._totals["completion_tokens"] += completion.completion_tokens
        self._totals["calls"] += 1
        self._totals["cached_calls"] += completion.cached
        self._step_calls.append({"policy": caller, "prompt_chars": len(system) + len(user),
                                 "prompt_tokens": completion.prompt_tokens,
                                 "completion_tokens": completion.completion_tokens,
                                 "cached": completion.cached, "reply": completion.text})
        return completion

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

    def usage(self) -> dict:
        return dict(self._totals)

    def take_step_log(self) -> dict:
        """The calls made since the last take: prompt size (characters) and the calls themselves."""
        calls, self._step_calls = self._step_calls, []
        return {"prompt_chars": sum(c["prompt_chars"] for c in calls), "model_calls": calls}
