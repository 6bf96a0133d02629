"""Launching Debian's Chromium through Playwright: the one place that knows the flags."""
from __future__ import annotations

import os
import shutil

CHROMIUM_PATH = os.environ.get("CRM_CHROMIUM", "/usr/bin/chromium")

# Without the background-networking flags Chromium keeps dialling Google's hosts, which this
# kind of machine refuses; the sandbox flag is needed when running as root.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_executable() -> str | None:
    """Debian's Chromium when present; None lets Playwright use its own installed browser."""
    if os.path.exists(CHROMIUM_PATH):
        return CHROMIUM_PATH
    return shutil.which("chromium")


def launch_chromium(playwright, headless: bool = True):
    """Start a headless Chromium with the flags this project needs."""
    return playwright.chromium.launch(
        executable_path=chromium_executable(),
        headless=headless,
        args=CHROMIUM_ARGS,
    )
