"""Makes docs/ui-variants/search-<K>.png and passenger-<K>.png: the search page and the booking's
passenger form in every UI variant (crm_app/ui_variants), for docs/ui-variants.md.

    .venv/bin/python docs/make_ui_variant_screenshots.py

An embedded CRM in the default world; the oracle walks a TASK_BOOK_FLIGHT scenario (seed 1) in each
variant up to the passenger form. The PNGs are reduced to 128 colours (Pillow) to stay small.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))

from PIL import Image  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from agent.env.browser import launch_chromium  # noqa: E402
from agent.env.browser_env import CrmEnv  # noqa: E402
from agent.policies import make_policy  # noqa: E402
from crm_app.server import BackgroundServer  # noqa: E402
from crm_app.ui_variants import VARIANTS  # noqa: E402
from scenarios.app import create_app  # noqa: E402

OUT = DOCS / "ui-variants"
TOKEN = "screenshots"
VIEWPORT = {"width": 1100, "height": 760}


def shoot(page, target: Path) -> None:
    page.set_viewport_size(VIEWPORT)
    page.screenshot(path=target)
    Image.open(target).convert("RGB").quantize(128).save(target, optimize=True)
    print(f"{target.relative_to(DOCS.parent)}: {target.stat().st_size / 1e3:.0f} kB")


def walk_to_passenger_form(env, number: int) -> None:
    obs, info = env.reset(task="TASK_BOOK_FLIGHT", seed=1, ui_variant=str(number))
    shoot(env.page, OUT / f"search-{number}.png")
    oracle = make_policy("oracle")
    oracle.reset(info["scenario"])
    first_passenger_step = next(i for i, step in enumerate(info["scenario"]["gold_actions"])
                                if step["target"].startswith("passenger-"))
    for _ in range(first_passenger_step):
        obs, *_ = env.step(oracle.act(obs)[1])
    shoot(env.page, OUT / f"passenger-{number}.png")


def main() -> None:
    OUT.mkdir(exist_ok=True)
    os.environ["CRM_OPERATOR_TOKEN"] = TOKEN
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE_URL": f"sqlite:///{folder}/crm.db", "INSTANCE_PATH": folder})
        with BackgroundServer(app) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            with CrmEnv(server.url, browser=browser, operator_token=TOKEN) as env:
                for variant in VARIANTS:
                    walk_to_passenger_form(env, variant.number)
            browser.close()


if __name__ == "__main__":
    main()
