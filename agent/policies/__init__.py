"""Policies by method name. A method registers a factory taking the runner's options."""
from __future__ import annotations

from typing import Callable

from .base import Policy

FACTORIES: dict[str, Callable[..., Policy]] = {}


def register(name: str):
    def decorate(factory):
        FACTORIES[name] = factory
        return factory

    return decorate


def make_policy(name: str, **options) -> Policy:
    _load_builtin()
    if name not in FACTORIES:
        raise KeyError(f"unknown method {name!r}; known: {', '.join(sorted(FACTORIES))}")
    return FACTORIES[name](**options)


def methods() -> list[str]:
    _load_builtin()
    return sorted(FACTORIES)


def _load_builtin() -> None:
    from . import flat, heap, oracle, step  # noqa: F401  (each registers itself)
