"""The model-call bookkeeping shared by the LLM policies: one client, the usage since reset, and
what each step's calls cost (prompt size, tokens) for the trajectory."""
from __future__ import annotations

import base64

from ..llm import DEFAULT_TEMPERATURE, Completion, LLMClient, LLMError


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
        self._totals = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0, "cached_calls": 0}
        self._step_calls: list[dict] = []

    def ask(self, system: str, user: str, caller: str = "", images: list[bytes] = ()) -> Completion:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user_content(user, images)}]
        completion = self.client.complete(messages)
        self._totals["prompt_tokens"] += completion.prompt_tokens
        self._totals["completion_tokens"] += completion.completion_tokens
        self._totals["calls"] += 1
        self._totals["cached_calls"] += completion.cached
        self._step_calls.append({"policy": caller, "prompt_chars": len(system) + len(user), "images": len(images),
                                 "prompt_tokens": completion.prompt_tokens,
                                 "completion_tokens": completion.completion_tokens,
                                 "cached": completion.cached, "reply": completion.text})
        return completion

    def usage(self) -> dict:
        return dict(self._totals)

    def take_step_log(self) -> dict:
        """The calls made since the last take: prompt size (characters) and the calls themselves."""
        calls, self._step_calls = self._step_calls, []
        return {"prompt_chars": sum(c["prompt_chars"] for c in calls), "model_calls": calls}
