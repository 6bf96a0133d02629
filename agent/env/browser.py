"""Launching Debian's Chromium through Playwright: the one place that knows the flags."""
from __future__ import annotations

import os
import shutil

from playwright.sync_api import Error as PlaywrightError

CHROMIUM_PATH = os.environ.get("CRM_CHROMIUM", "/usr/bin/chromium")

# Without the background-networking flags Chromium keeps dialling Google's hosts, which this
# kind of machine refuses; the sandbox flag is needed when running as root. Scrolling by keys jumps
# instead of gliding: a glide moves on drawn frames, which a page whose window is minimized
# (stop_drawing) does not draw, and an observation after it would wait for the glide to end.
CHROMIUM_ARGS = [
    "--disable-smooth-scrolling",
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


def stop_drawing(page) -> None:
    """Minimize the window of a page in headless Chromium. Chromium then composites, rasters and
    draws no frames for it, which nobody sees, while its scripts, animation frames, layout, input
    and screenshots still work: a step of the environment's own (an action carried out inside the
    page) costs Chromium about a fifth less CPU (benchmarks/browser_step_cost.py, "window drawn").
    For pages whose pixels are looked at it is the wrong trade: each screenshot then draws the whole
    page afresh, and Playwright's actionability checks on an element outside the viewport wait
    about two seconds for frames. A headed browser's window, which a person may be watching, is
    left as it is, and so is a browser that is not Chromium. A new page in the same context
    restores the window."""
    try:
        session = page.context.new_cdp_session(page)
    except PlaywrightError:
        return  # not Chromium: no DevTools session
    try:
        if "HeadlessChrome" in session.send("Browser.getVersion")["userAgent"]:
            window = session.send("Browser.getWindowForTarget")["windowId"]
            session.send("Browser.setWindowBounds", {"windowId": window, "bounds": {"windowState": "minimized"}})
    finally:
        session.detach()
