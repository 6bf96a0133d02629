"""Where a method works its scenarios, by name: `browser` (CrmEnv, the page in Chromium) or `api`
(ApiEnv, the JSON API as tool calls). A policy class names its own with an `environment`
attribute (`browser` when it names none); the runner makes the one each method needs."""
from __future__ import annotations

from collections.abc import Callable

from .api_env import ApiEnv
from .protocols import Protocol
from .recording import EpisodeRecorder, records_anything


def _browser(server_url: str, operator_token: str | None, protocol: Protocol, recording: dict, browser=None):
    from .env import CrmEnv  # Playwright loads only when a browser is wanted

    env = CrmEnv(server_url, browser=browser, operator_token=operator_token, **protocol.env_options())
    if records_anything(recording):
        env.recorder = EpisodeRecorder(**recording)
    return env


def _api(server_url: str, operator_token: str | None, protocol: Protocol, recording: dict, browser=None):
    """Screenshots and traces have no page to record here."""
    return ApiEnv(server_url, operator_token=operator_token, suite=protocol.suite,
                  stop_on_success=protocol.stop_on_success)


ENVIRONMENTS: dict[str, Callable] = {"browser": _browser, "api": _api}
DEFAULT = "browser"


def make_env(kind: str, server_url: str, operator_token: str | None, protocol: Protocol, recording: dict | None = None,
             browser=None):
    """A new environment of this kind for the protocol; `recording` as the runner's and `browser`, a
    running Chromium to open its contexts in (default: one of its own), for the browser only."""
    return ENVIRONMENTS[kind](server_url, operator_token, protocol, recording or {}, browser)
