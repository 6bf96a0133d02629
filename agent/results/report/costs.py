"""Tokens and, when the user gives prices, cost per label. No price is built in: prices change and
differ between providers, so a cost is shown only for models the user's price table names.

A price table is a JSON file of US dollars per million tokens:

    {"gpt-4o-mini": {"prompt": 0.15, "completion": 0.60}}
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .loading import Run


class PriceError(ValueError):
    """The price table cannot be used; the message says why."""


@dataclass
class LabelUsage:
    label: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    cached_calls: int = 0
    cost: float | None = 0.0  # US dollars; None when a model with tokens has no price
    unpriced: set = field(default_factory=set)  # models used without a price


def load_prices(path: str | Path) -> dict[str, dict[str, float]]:
    try:
        table = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise PriceError(f"cannot read the price table {path}: {error}") from None
    if not isinstance(table, dict):
        raise PriceError(f"the price table {path} must map model names to prices")
    for model, price in table.items():
        if not (isinstance(price, dict) and all(isinstance(price.get(k), (int, float)) for k in ("prompt", "completion"))):
            raise PriceError(f"the price of {model!r} in {path} needs numbers 'prompt' and 'completion' "
                             "(US dollars per million tokens)")
    return table


def usage_by_label(run: Run, prices: dict | None) -> list[LabelUsage]:
    """Token totals from agent.summary's rows (complete episodes); the cost of each episode from the
    price of its model (the one its settings record, else run.json's)."""
    usages = {label: LabelUsage(label) for label in run.labels}
    for row in run.rows:
        usage = usages[row["method"]]
        usage.prompt_tokens += row["prompt_tokens"]
        usage.completion_tokens += row["completion_tokens"]
        usage.calls += row["llm_calls"]
        usage.cached_calls += row["cached_calls"]
    costs: dict[str, float] = defaultdict(float)
    for episode in run.episodes:
        tokens = episode.data.get("usage") or {}
        spent = (tokens.get("prompt_tokens", 0), tokens.get("completion_tokens", 0))
        if not episode.complete or not any(spent):
            continue
        model = episode.settings.get("model") or (run.provenance or {}).get("model")
        cost = episode_cost(tokens, model, prices)
        if cost is None:
            usages[episode.label].unpriced.add(str(model or "unknown model"))
            continue
        costs[episode.label] += cost
    for usage in usages.values():
        usage.cost = None if usage.unpriced else costs[usage.label]
    return list(usages.values())


def episode_cost(usage: dict, model, prices: dict | None) -> float | None:
    """US dollars of an episode's tokens at its model's price; None when the model has no price."""
    price = (prices or {}).get(model) if isinstance(model, str) else None
    if price is None:
        return None
    return (usage.get("prompt_tokens", 0) * price["prompt"] + usage.get("completion_tokens", 0) * price["completion"]) / 1e6
