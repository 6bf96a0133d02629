"""agent/env/browser.py's switches: no address-bar pop-up page started in a context, and every
feature Playwright turns off still off (Chromium reads only the last --disable-features)."""
from __future__ import annotations

import re
from pathlib import Path

from agent.env.browser import DISABLE_FEATURES, UNSHOWN_FEATURES, chromium_args


def disabled_features(pid: int) -> list[list[str]]:
    """The features each --disable-features switch of a process's command line names, in order
    (Chromium's child processes rewrite theirs into one line, separated by spaces)."""
    command = re.split(r"[\0 ]", Path(f"/proc/{pid}/cmdline").read_bytes().decode())
    return [arg[len(DISABLE_FEATURES):].split(",") for arg in command if arg.startswith(DISABLE_FEATURES)]


def browser_with_a_page(browser) -> tuple[list[dict], list[dict], list[list[list[str]]]]:
    """(the browser's DevTools targets, its processes, each renderer's --disable-features switches)
    while a new context shows a page."""
    context = browser.new_context()
    try:
        context.new_page().goto("about:blank")
        session = browser.new_browser_cdp_session()
        targets = session.send("Target.getTargets")["targetInfos"]
        processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
        renderers = [disabled_features(process["id"]) for process in processes if process["type"] == "renderer"]
        session.detach()
    finally:
        context.close()
    return targets, processes, renderers


def test_a_new_context_starts_no_page_of_the_browsers_own(browser):
    targets, _, _ = browser_with_a_page(browser)
    own = [target for target in targets if target["type"] != "page"]  # other tests' pages may be open
    assert not own, own  # such as browser_ui chrome://omnibox-popup.top-chrome/


def test_the_features_playwright_turns_off_stay_off(browser):
    _, processes, renderers = browser_with_a_page(browser)
    browser_pid = next(process["id"] for process in processes if process["type"] == "browser")
    playwrights, ours = disabled_features(browser_pid)  # Playwright's switch comes first
    assert set(playwrights) <= set(ours) and set(UNSHOWN_FEATURES) <= set(ours)
    assert renderers and all(set(UNSHOWN_FEATURES) <= set(switches[-1]) for switches in renderers)


def test_a_librarys_own_features_switch_joins_ours():
    args = chromium_args("--disable-features=OverlayScrollbars,PaintHolding", "--remote-debugging-port=0")
    switches = [arg for arg in args if arg.startswith(DISABLE_FEATURES)]
    assert len(switches) == 1 and args[-1] == switches[0] and "--remote-debugging-port=0" in args
    features = switches[0][len(DISABLE_FEATURES):].split(",")
    assert {"OverlayScrollbars", "PaintHolding", *UNSHOWN_FEATURES} <= set(features)
    assert len(features) == len(set(features))
