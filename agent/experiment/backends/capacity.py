"""How many browsers a backend runs, and the error when it cannot play a run as asked."""
from __future__ import annotations

import os


class BackendError(RuntimeError):
    """The backend cannot play the run as asked (say, a Ray cluster without enough CPUs)."""


def default_browsers(concurrency: int, cores: int | None = None) -> int:
    """One browser per core (Chromium's renderers are what keeps the cores busy), at most one per
    episode in flight."""
    return max(1, min(concurrency, cores or os.cpu_count() or 1))
