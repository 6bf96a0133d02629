"""BrowserGym on Debian's Chromium, with the harness's flags (agent/env/browser.py).

BrowserGym launches two browsers per episode (the page's and the chat's) through one global
Playwright, and fixes the launch arguments itself; the Playwright it pins would otherwise look for a
browser of its own download, which a machine without network access does not have. So the global
Playwright is wrapped: every Chromium it launches gets Debian's executable and the project's flags.
Nothing changes when no Chromium is installed where agent/env/browser.py looks (Playwright's own is used).
"""
from __future__ import annotations

import browsergym.core

from agent.env.browser import CHROMIUM_ARGS, chromium_executable


class _DebianChromium:
    """A Playwright BrowserType whose launch() uses Debian's Chromium and the project's flags."""

    def __init__(self, browser_type, executable: str):
        self._browser_type, self._executable = browser_type, executable

    def launch(self, **options):
        options.setdefault("executable_path", self._executable)
        options["args"] = [*CHROMIUM_ARGS, *options.get("args", [])]
        return self._browser_type.launch(**options)

    def __getattr__(self, name):
        return getattr(self._browser_type, name)


class _PlaywrightOnDebianChromium:
    def __init__(self, playwright, executable: str):
        self._playwright = playwright
        self.chromium = _DebianChromium(playwright.chromium, executable)

    def __getattr__(self, name):
        return getattr(self._playwright, name)


def use_debian_chromium() -> None:
    """Make BrowserGym's global Playwright launch Debian's Chromium (once per process)."""
    executable = chromium_executable()
    playwright = browsergym.core._get_global_playwright()
    if executable and not isinstance(playwright, _PlaywrightOnDebianChromium):
        browsergym.core._set_global_playwright(_PlaywrightOnDebianChromium(playwright, executable))
