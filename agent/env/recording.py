"""What a run can keep of each episode besides its trajectory, for the report: a small JPEG of the
page after every step (`--screenshots`) and a Playwright trace (`--trace failed|all`).

Both live in a folder next to the trajectory, named after it (agent/episode/run_folder.py):

    OUT/<label>/<task>/seed3-trial0.json      the trajectory
    OUT/<label>/<task>/seed3-trial0/step001.jpg  the page after step 1
    OUT/<label>/<task>/seed3-trial0/trace.zip    `playwright show-trace` replays it

The environment calls the recorder while the episode's page is still open (see CrmEnv.recorder).
"""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Error as PlaywrightError

TRACE_MODES = ("failed", "all")
JPEG_QUALITY = 50
TRACE_NAME = "trace.zip"


def records_anything(recording: dict) -> bool:
    """Whether a run's `recording` ({"screenshots": bool, "trace": None|"failed"|"all"}) keeps anything."""
    return bool(recording.get("screenshots") or recording.get("trace"))


def screenshot_name(step: int) -> str:
    return f"step{step:03d}.jpg"


class EpisodeRecorder:
    """Screenshots and/or a trace of the episodes one environment plays; `folder` is set by the
    episode worker before each episode."""

    def __init__(self, screenshots: bool = False, trace: str | None = None):
        if trace not in (None, *TRACE_MODES):
            raise ValueError(f"trace must be one of {', '.join(TRACE_MODES)}, not {trace!r}")
        self.screenshots = screenshots
        self.trace = trace
        self.folder: Path | None = None
        self._tracing = False

    def begin(self, context) -> None:
        """A new episode in this browser context: start tracing."""
        if self.trace:
            context.tracing.start(screenshots=True, snapshots=True)
            self._tracing = True

    def after_step(self, page, step: int) -> None:
        if self.screenshots and self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=self.folder / screenshot_name(step), type="jpeg", quality=JPEG_QUALITY)

    def end(self, context, failed: bool) -> None:
        """The episode is over (or broke): keep its trace if the mode asks for it."""
        if not self._tracing:
            return
        self._tracing = False
        keep = self.folder is not None and (self.trace == "all" or failed)
        try:
            if keep:
                self.folder.mkdir(parents=True, exist_ok=True)
                context.tracing.stop(path=self.folder / TRACE_NAME)
            else:
                context.tracing.stop()
        except PlaywrightError:
            pass  # the browser died with the episode: there is no trace to keep
