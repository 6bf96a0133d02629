"""Makes docs/images/hard-suite.png, the README's picture: a hard-suite scenario's page
(TASK_POLICY_CHANGE, seed 3) with its call, after the agent asked for the confirmation code and
the simulated customer answered, in the Call panel.

    .venv/bin/python docs/make_readme_screenshot.py

An embedded CRM in the default world, headless Chromium; the PNG is reduced to 96 colours (Pillow).
"""
from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))

from PIL import Image  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from agent.env.browser import launch_chromium  # noqa: E402
from crm_app.http_client import http_sender  # noqa: E402
from scenarios.app import embedded_server  # noqa: E402

TARGET = DOCS / "images" / "hard-suite.png"
QUESTION = "May I have your confirmation code, please?"


def main() -> None:
    with embedded_server(None) as server, sync_playwright() as playwright:
        _, made = http_sender(server.url)("GET", "/generate-random-scenario?task=TASK_POLICY_CHANGE&seed=3&suite=hard")
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1200, "height": 680})
        page.goto(made["url"])
        page.wait_for_function("() => window.crm && window.crm.ready === true")
        call = page.get_by_role("region", name="Call", exact=True)
        call.get_by_label("Message to the customer").fill(QUESTION)
        page.keyboard.press("Enter")
        call.get_by_role("listitem").nth(2).wait_for()
        page.get_by_role("link", name="Find booking").click()
        page.wait_for_timeout(300)
        page.screenshot(path=TARGET)
        browser.close()
    Image.open(TARGET).convert("RGB").quantize(96).save(TARGET, optimize=True)
    print(f"{TARGET.relative_to(DOCS.parent)}: {TARGET.stat().st_size / 1e3:.0f} kB")


if __name__ == "__main__":
    main()
