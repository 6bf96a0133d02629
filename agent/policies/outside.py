"""A method from outside the project: `--method package.module:Class` names a Policy class
(agent/episode/policy.py) that is imported when the method is asked for, from the current folder or
PYTHONPATH. The class is called with the run's options that its constructor names (all of them when
it takes **options). What cannot be used is an OutsideMethodError of one line: a module that does
not import, a missing class, or a class that does not follow the contract (a subclass of Policy
that defines reset and act)."""
from __future__ import annotations

import functools
import importlib
import inspect
import os
import sys

from ..episode.policy import Policy


class OutsideMethodError(ValueError):
    """An outside method that cannot be used, said in one line."""


def is_reference(name: str) -> bool:
    return ":" in name


def label(reference: str) -> str:
    """The folder and column an outside method's runs go by: `package.module.Class` (a colon would
    read as a URL scheme in the report's links)."""
    return reference.replace(":", ".")


@functools.lru_cache(maxsize=None)
def policy_class(reference: str) -> type:
    module_name, _, class_name = reference.partition(":")
    if not module_name.strip() or not class_name.strip():
        raise OutsideMethodError(f"--method {reference}: an outside method is named module:Class, "
                                 "e.g. examples.scripted_policy:ScriptedPolicy")
    if os.getcwd() not in sys.path and "" not in sys.path:  # as `python -m` does, for the airlinecrm command
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name.strip())
    except Exception as error:  # any failure of the user's module: say which and why, in one line
        raise OutsideMethodError(f"--method {reference}: module {module_name} does not import: "
                                 f"{type(error).__name__}: {one_line(error)}") from None
    cls = getattr(module, class_name.strip(), None)
    if cls is None:
        raise OutsideMethodError(f"--method {reference}: module {module_name} has no {class_name}")
    problem = contract_problem(cls)
    if problem:
        raise OutsideMethodError(f"--method {reference}: {class_name} does not follow the policy contract "
                                 f"(agent/episode/policy.py): {problem}")
    return cls


def contract_problem(cls) -> str:
    """What keeps `cls` from being a policy ("" when nothing): a Policy subclass with its own reset and act."""
    if not inspect.isclass(cls):
        return "it is not a class"
    if not issubclass(cls, Policy):
        return "it is not a subclass of agent.episode.policy.Policy"
    missing = [name for name in ("reset", "act") if getattr(cls, name) is getattr(Policy, name)]
    if missing:
        return f"it does not define {' and '.join(f'{name}()' for name in missing)}"
    return ""


def options_for(cls: type, options: dict) -> dict:
    """The run's options that `cls`'s constructor names, or all of them when it takes **options."""
    parameters = inspect.signature(cls).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return options
    named = {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return {key: value for key, value in options.items() if key in named}


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text[:300] or "no message"
