"""Environments: a scenario worked in headless Chromium (`browser_env.CrmEnv`) or through the JSON
API (`api_env.ApiEnv`), made by kind in `kinds.py`. Here too: the action grammar (`actions.py`)
and how an action is carried out on the page (`executor.py`), the observation (`observation.py`,
`page_agent.js`) and its modes (`modes/`), Chromium's launch (`browser.py`, `browser_host.py`)
and what is recorded of an episode (`recording.py`). Imports only `agent.crm` below it.

The public names are handed on from here, `from agent.env import CrmEnv` (the path older code
uses), each imported from its module on first use: importing `agent.env.actions` alone does not
load Playwright."""
from __future__ import annotations

from importlib import import_module

PUBLIC = {  # name -> the module of this package that defines it
    "CrmEnv": "browser_env", "wait_until_ready": "browser_env", "VIEWPORT": "browser_env",
    "ApiEnv": "api_env", "ToolObservation": "api_env",
    "BrowserHost": "browser_host", "HostedEnv": "browser_host", "make_env": "kinds",
    "Action": "actions", "ActionError": "actions", "parse_action": "actions", "describe_actions": "actions",
    "Observation": "observation", "Reading": "observation",
}
__all__ = sorted(PUBLIC)


def __getattr__(name: str):
    if name not in PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{PUBLIC[name]}"), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *PUBLIC})
