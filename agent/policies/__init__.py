"""Policies by method name. A method registers a factory taking the runner's options; a protocol
may have its own variant of a method (`register("flat", protocol="paper")`), which make_policy picks
for the `protocol` option."""
from __future__ import annotations

from typing import Callable

from .base import Policy

FACTORIES: dict[str, Callable[..., Policy]] = {}
VARIANTS: dict[tuple[str, str], Callable[..., Policy]] = {}  # (method, protocol) -> factory


def register(name: str, protocol: str | None = None):
    def decorate(factory):
        if protocol:
            VARIANTS[(name, protocol)] = factory
        else:
            FACTORIES[name] = factory
        return factory

    return decorate


def make_policy(name: str, **options) -> Policy:
    _load_builtin()
    if name not in FACTORIES:
        raise KeyError(f"unknown method {name!r}; known: {', '.join(sorted(FACTORIES))}")
    return VARIANTS.get((name, options.get("protocol")), FACTORIES[name])(**options)


SHOT_NAMES = {"0": "zero-shot", "few": "few-shot", "auto": "auto"}


def takes_shots(name: str) -> bool:
    """Whether the method has zero- and few-shot prompts (the LLM policies; not the oracle)."""
    _load_builtin()
    return bool(getattr(FACTORIES.get(name), "takes_shots", False))


def environment_of(name: str) -> str:
    """Where the method works a scenario (agent/environments.py): `browser`, unless its policy class
    says otherwise (toolcall: `api`)."""
    _load_builtin()
    return getattr(FACTORIES.get(name), "environment", "browser")


def shot_settings(name: str) -> tuple[str, ...]:
    """The --shots settings a method takes: "0" and "few" for the LLM methods, also "auto"
    (examples from its own successful zero-shot trials) for webwise; none for the oracle."""
    if not takes_shots(name):
        return ()
    return tuple(getattr(FACTORIES[name], "shot_settings", ("0", "few")))


def method_label(name: str, shots: str = "0") -> str:
    """The name a run goes by in folders and in the table: `flat-few-shot`, `step-zero-shot`,
    `webwise-auto`, `oracle`; so the settings of one method can share an output folder."""
    return f"{name}-{SHOT_NAMES[shots]}" if takes_shots(name) else name


def methods() -> list[str]:
    _load_builtin()
    return sorted(FACTORIES)


def _load_builtin() -> None:
    from . import coordinate_oracle, flat, heap, oracle, paper, step, synapse, toolcall, webwise  # noqa: F401  (each registers itself)
