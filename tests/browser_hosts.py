"""One browser per test process for the episode runs its tests start (`python -m agent run` called
in-process): each run's EpisodeWorker gets a BrowserHost from this pool, and closing it hands it back
with its Chromium still running, for the next run. Starting Chromium and Playwright's driver costs
about a CPU-second, and the tests start some hundred runs (docs/tests.md).

A run's environments close their browser contexts when it ends, so the next run starts from a
browser with no page open. Hosts in use at once are distinct ones (a run with --browsers 2 takes
two); every host is really closed when the test session ends. Tests about starting browsers
(tests/agent/test_shared_browser.py) give EpisodeWorker the real BrowserHost back.
"""
from __future__ import annotations

import threading

from agent.env.browser_host import BrowserHost


class BrowserHostPool:
    def __init__(self):
        self._lock = threading.Lock()
        self._idle: list[PooledBrowserHost] = []
        self._every: list[PooledBrowserHost] = []

    def take(self) -> BrowserHost:
        """An idle host (its browser may have died: it starts again when next needed), or a new one."""
        with self._lock:
            if self._idle:
                return self._idle.pop()
            host = PooledBrowserHost(self)
            self._every.append(host)
            return host

    def give_back(self, host: PooledBrowserHost) -> None:
        with self._lock:
            self._idle.append(host)

    def close(self) -> None:
        with self._lock:
            hosts, self._every, self._idle = self._every, [], []
        for host in hosts:
            BrowserHost.close(host)


class PooledBrowserHost(BrowserHost):
    def __init__(self, pool: BrowserHostPool):
        super().__init__()
        self._pool = pool

    def close(self) -> None:
        """Back to the pool, its browser kept."""
        self._pool.give_back(self)
