"""Where a run's episodes are played: the backends.

- `local`: worker threads in this process. `--browsers` Chromium browsers, each on a thread of its
  own (browser_host.py), and `--concurrency` episode threads sharing them: an episode uses its
  browser only for page work, so while its model thinks the browser serves other episodes.
- `ray`: the same workers as Ray actors (ray_cluster.py), one browser each, spread over a Ray
  cluster (`--ray-address`) or a local Ray instance started for the run.

Either way the driver (agent/experiment/runner.py, in this process) hands out the episodes and writes every
trajectory, so the output folder, resuming, run.json, the table and the report do not depend on
the backend.
"""
from __future__ import annotations

import contextlib

from .capacity import BackendError

BACKENDS = ("local", "ray")


def play_all(backend: str, todo: list, driver, config, concurrency: int, browsers: int | None,
             ray_address: str | None = None) -> None:
    """Play `todo` (EpisodeSpecs) with `concurrency` episodes in flight on `browsers` browsers,
    handing each outcome to `driver`; stops handing out episodes once the driver has a model error."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if concurrency < 1 or (browsers is not None and browsers < 1):
        raise ValueError("concurrency and browsers are 1 or more")
    if not todo:
        return
    if backend == "ray":
        from . import ray_cluster

        ray_cluster.play_all(todo, driver, config, concurrency, browsers, ray_address)
    else:
        from . import local

        local.play_all(todo, driver, config, concurrency, browsers)


def session(backend: str, ray_address: str | None = None, browsers: int | None = None):
    """A context in which several runs share one backend (one Ray connection for all of them)."""
    if backend != "ray":
        return contextlib.nullcontext()
    from . import ray_cluster

    return ray_cluster.connected(ray_address, browsers)
