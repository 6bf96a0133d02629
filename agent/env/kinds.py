"""Where a method works its scenarios, by name: `browser` (CrmEnv, the page in Chromium) or `api`
(ApiEnv, the JSON API as tool calls). A policy class names its own with an `environment`
attribute (`browser` when it names none); the episode worker makes the one each method needs.

Environment options (`options`) are plain data a protocol hands down: `suite`, `stop_on_success`
for both kinds, `reading` (observation.Reading) for the browser, and `on_call` (a customer on the
line: the browser's first observation opens with their first line, the API gets the tools to speak
to them and to search bookings by name) with its `channel` (actions.CHANNELS; the browser's `page`:
the call on the page's Call panel alone; the API speaks through its tools either way)."""
from __future__ import annotations

from collections.abc import Callable

from .api_env import ApiEnv
from .recording import EpisodeRecorder, records_anything


def _browser(server_url: str, operator_token: str | None, options: dict, recording: dict, browser=None):
    from .browser_env import CrmEnv  # Playwright loads only when a browser is wanted

    env = CrmEnv(server_url, browser=browser, operator_token=operator_token, **options)
    if records_anything(recording):
        env.recorder = EpisodeRecorder(**recording)
    return env


def _api(server_url: str, operator_token: str | None, options: dict, recording: dict, browser=None):
    """No page: nothing to read, screenshot or trace."""
    return ApiEnv(server_url, operator_token=operator_token, suite=options.get("suite"),
                  stop_on_success=options.get("stop_on_success", False), on_call=options.get("on_call", False))


ENVIRONMENTS: dict[str, Callable] = {"browser": _browser, "api": _api}
DEFAULT = "browser"


def make_env(kind: str, server_url: str, operator_token: str | None, options: dict | None = None,
             recording: dict | None = None, browser=None):
    """A new environment of this kind with these options; `recording` ({"screenshots": bool, "trace":
    None|"failed"|"all"}) and `browser`, a running Chromium to open its contexts in (default: one of
    its own), are for the browser only."""
    return ENVIRONMENTS[kind](server_url, operator_token, options or {}, recording or {}, browser)
