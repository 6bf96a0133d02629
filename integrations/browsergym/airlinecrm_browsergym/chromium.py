"""BrowserGym on Debian's Chromium, with the harness's flags (agent/env/browser.py), one browser
kept running per kind.

BrowserGym launches two browsers per episode (the page's and the chat's) through one global
Playwright, and fixes the launch arguments itself; the Playwright it pins would otherwise look for a
browser of its own download, which a machine without network access does not have. So the global
Playwright is wrapped: every Chromium it launches gets Debian's executable and the project's flags.
Nothing changes when no Chromium is installed where agent/env/browser.py looks (Playwright's own is used).

BrowserGym also closes both browsers at every reset and close, and launches them again for the next
episode: about half a CPU-second and a few hundred milliseconds each time. The wrapper keeps each
browser running (one per set of launch options: the page's, the chat's) and lends it to the next
episode: an episode's close() closes the contexts it opened, not the browser. The browsers end with
the process (their pipe to Playwright's driver closes), or when one is found disconnected, is
launched again.
"""
from __future__ import annotations

import browsergym.core
from playwright.sync_api import Error as PlaywrightError

from agent.env.browser import chromium_args, chromium_executable


class _LentBrowser:
    """A running browser lent to one episode: close() closes the contexts the episode opened."""

    def __init__(self, browser):
        self._browser, self._contexts = browser, []

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        self._contexts.append(context)
        return context

    def new_page(self, **options):
        page = self._browser.new_page(**options)
        self._contexts.append(page.context)
        return page

    def close(self, **_options) -> None:
        for context in self._contexts:
            try:
                context.close()
            except PlaywrightError:  # its browser went away: nothing is left open
                pass
        self._contexts.clear()

    def __getattr__(self, name):
        return getattr(self._browser, name)


class _DebianChromium:
    """A Playwright BrowserType whose launch() uses Debian's Chromium and the project's flags, and
    lends the browser a launch with the same options started before."""

    def __init__(self, browser_type, executable: str):
        self._browser_type, self._executable = browser_type, executable
        self._running = {}  # launch options (as text) -> the browser they launched

    def launch(self, **options):
        options.setdefault("executable_path", self._executable)
        options["args"] = chromium_args(*options.get("args", []))
        key = repr(sorted(options.items()))
        browser = self._running.get(key)
        if browser is None or not browser.is_connected():
            browser = self._running[key] = self._browser_type.launch(**options)
        return _LentBrowser(browser)

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
