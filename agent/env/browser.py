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

# Chromium 156 renders its address bar's pop-up as a web page of its own (a "top-chrome WebUI"
# renderer) and starts it in every window, i.e. in every Playwright context: about half a CPU-second
# a context for a pop-up that a headless window never shows.
UNSHOWN_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
# Chromium reads only the last --disable-features switch, and Playwright passes one of its own before
# ours: ours repeats it (the list of the Playwright in .venv; tests/agent/test_chromium_flags.py
# fails when an upgrade changes it).
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
    "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch",
    "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)
DISABLE_FEATURES = "--disable-features="


def chromium_args(*more: str) -> list[str]:
    """CHROMIUM_ARGS, then `more` (a library's own switches), with every feature that Playwright,
    this project and `more` turn off in one --disable-features switch, the last."""
    features, others = [*PLAYWRIGHT_DISABLED_FEATURES, *UNSHOWN_FEATURES], []
    for arg in (*CHROMIUM_ARGS, *more):
        if arg.startswith(DISABLE_FEATURES):
            features += filter(None, arg[len(DISABLE_FEATURES):].split(","))
        else:
            others.append(arg)
    return [*others, DISABLE_FEATURES + ",".join(dict.fromkeys(features))]


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
        args=chromium_args(),
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
