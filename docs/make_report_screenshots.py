"""Makes docs/report-overview.png and docs/report-episode.png, the README's pictures of the report.

    .venv/bin/python docs/make_report_screenshots.py

The overview is of synthetic trajectories (tests/agent/synthetic_runs.py), the episode page of a
real run of the flat method against the test suite's scripted fake model (tests/fake_openai.py)
with --screenshots: neither shows a real model's results. The PNGs are reduced to 256 colours
(Pillow, installed with matplotlib) to stay small.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))

from PIL import Image  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from agent.__main__ import main  # noqa: E402
from agent.env.browser import launch_chromium  # noqa: E402
from agent.results.report import write_report  # noqa: E402
from tests.agent import scripted_model  # noqa: E402
from tests.agent.synthetic_runs import write_run  # noqa: E402
from tests.fake_openai import FakeOpenAIServer  # noqa: E402

LABELS = ("flat-zero-shot", "flat-few-shot", "heap-few-shot", "step-few-shot")


def overview_run(out: Path) -> Path:
    write_run(out, labels=LABELS, seeds=10)
    (out / "run.json").write_text(json.dumps({
        "note": "synthetic trajectories made for this screenshot, not results of any model",
        "labels": list(LABELS), "model": "synthetic-model", "temperature": 0.3, "protocol": "paper",
        "seeds": "0-9", "git_commit": "(example)"}))
    return write_report(out)


def episode_run(out: Path) -> Path:
    with FakeOpenAIServer(scripted_model.flat_search_flight) as fake:
        main(["run", "--method", "flat", "--tasks", "TASK_FIND_FLIGHT", "--episodes", "1", "--out", str(out),
              "--quiet", "--screenshots", "--model", "scripted-fake-model", "--base-url", fake.base_url])
    return out / "report" / "episodes" / "flat-zero-shot" / "TASK_FIND_FLIGHT" / "seed0-trial0.html"


def shoot(url: str, target: Path, height: int, steps_right: int = 0) -> None:
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": height})
        page.goto(url, wait_until="load")
        for _ in range(steps_right):
            page.keyboard.press("ArrowRight")
        page.wait_for_timeout(300)  # lazy screenshots of the step scrolled to
        page.screenshot(path=target)
        browser.close()
    Image.open(target).convert("RGB").quantize(256).save(target, optimize=True)
    print(f"{target}: {target.stat().st_size / 1e3:.0f} kB")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        index = overview_run(Path(folder) / "synthetic")
        shoot(index.as_uri(), DOCS / "report-overview.png", 1500)
        page = episode_run(Path(folder) / "flat")
        shoot(page.as_uri(), DOCS / "report-episode.png", 1000, steps_right=3)
