"""The methods by name: the one registry of policies. Each method is a Policy class in a module of
its own (with its prompts under prompts/), listed here once by where it lives; a module is imported
only when its method is asked for, so the oracle needs neither a model client nor `openai`. A
protocol may have its own variant of a method (the paper protocol's flat, heap and step), which
make_policy picks for the `protocol` option. `register` adds a method from outside the package,
and a method named `package.module:Class` is that class, imported when asked for (outside.py)."""
from __future__ import annotations

import importlib
from typing import Callable

from ..episode.policy import Policy
from . import outside

METHODS: dict[str, str] = {  # method -> "module:class" in this package
    "oracle": "oracle:OraclePolicy", "oracle-coordinates": "coordinate_oracle:CoordinateOraclePolicy",
    "flat": "flat:FlatPolicy", "heap": "heap:HeapPolicy", "step": "step:StepPolicy",
    "synapse": "synapse:SynapsePolicy", "webwise": "webwise:WebwisePolicy", "toolcall": "toolcall:ToolCallPolicy"}
VARIANTS: dict[tuple[str, str], str] = {  # (method, protocol) -> "module:class"
    ("flat", "paper"): "paper:PaperFlatPolicy", ("heap", "paper"): "paper:PaperHeapPolicy",
    ("step", "paper"): "paper:PaperStepPolicy"}
_REGISTERED: dict[tuple[str, str | None], Callable[..., Policy]] = {}  # by register()


def register(name: str, factory: Callable[..., Policy], protocol: str | None = None) -> None:
    """Add a method (or a protocol's variant of one): `factory` takes the run's options."""
    _REGISTERED[(name, protocol)] = factory


def policy_factory(name: str, protocol: str | None = None) -> Callable[..., Policy] | None:
    """The method's factory (its protocol's variant when there is one); None for an unknown method.
    `package.module:Class` is imported (outside.OutsideMethodError when it cannot be used)."""
    if outside.is_reference(name):
        return outside.policy_class(name)
    for key in ((name, protocol), (name, None)):
        if key in _REGISTERED:
            return _REGISTERED[key]
        where = VARIANTS.get(key) if key[1] else METHODS.get(name)
        if where:
            module, _, cls = where.partition(":")
            return getattr(importlib.import_module(f"{__name__}.{module}"), cls)
    return None


def make_policy(name: str, **options) -> Policy:
    factory = policy_factory(name, options.get("protocol"))
    if factory is None:
        raise KeyError(f"unknown method {name!r}; known: {', '.join(methods())}")
    if not outside.is_reference(name):
        return factory(**options)
    try:
        return factory(**outside.options_for(factory, options))
    except Exception as error:  # the user's constructor: one line saying so
        raise outside.OutsideMethodError(f"--method {name}: {factory.__name__}(...) failed: "
                                         f"{type(error).__name__}: {outside.one_line(error)}") from None


SHOT_NAMES = {"0": "zero-shot", "few": "few-shot", "auto": "auto"}


def takes_shots(name: str) -> bool:
    """Whether the method has zero- and few-shot prompts (the LLM policies; not the oracle)."""
    return bool(getattr(policy_factory(name), "takes_shots", False))


def uses_model(name: str) -> bool:
    """Whether the method calls a model, so that its runs record --model and --temperature: the LLM
    methods (they take shots), and a class that says `uses_model = True`."""
    return takes_shots(name) or bool(getattr(policy_factory(name), "uses_model", False))


def needs_gold(name: str) -> bool:
    """Whether the method's policy is handed the gold steps and hidden details (the oracle's opt-in,
    `needs_gold = True` on its class; agent/episode/policy.py), so that its runs need the server's
    operator token."""
    return bool(getattr(policy_factory(name), "needs_gold", False))


def environment_of(name: str) -> str:
    """Where the method works a scenario (agent/env/kinds.py): `browser`, unless its policy class
    says otherwise (toolcall: `api`)."""
    return getattr(policy_factory(name), "environment", "browser")


def action_space_of(name: str) -> str:
    """What the method's actions are (agent/experiment/step_caps.py): `elements`, unless its policy
    class says otherwise (oracle-coordinates: `coordinates`)."""
    return getattr(policy_factory(name), "action_space", "elements")


def shot_settings(name: str) -> tuple[str, ...]:
    """The --shots settings a method takes: "0" and "few" for the LLM methods, also "auto"
    (examples from its own successful zero-shot trials) for webwise; none for the oracle."""
    if not takes_shots(name):
        return ()
    return tuple(getattr(policy_factory(name), "shot_settings", ("0", "few")))


def method_label(name: str, shots: str = "0") -> str:
    """The name a run goes by in folders and in the table: `flat-few-shot`, `step-zero-shot`,
    `webwise-auto`, `oracle`, `mypkg.agent.MyPolicy` (an outside class); so the settings of one
    method can share an output folder."""
    shown = outside.label(name) if outside.is_reference(name) else name
    return f"{shown}-{SHOT_NAMES[shots]}" if takes_shots(name) else shown


def methods() -> list[str]:
    return sorted({*METHODS, *(name for name, protocol in _REGISTERED if protocol is None)})
