"""One headless Chromium that many episodes share, on a thread of its own.

Playwright's sync objects belong to the thread that made them, so everything that touches this
browser (opening a context, every action and observation) runs on the host's thread: episode
threads hand it work with `call` and wait for the answer. An episode that is waiting for its model
holds no lock, so while it waits the browser serves the other episodes.

    host = BrowserHost()
    env = host.environment(lambda browser: CrmEnv(url, browser=browser))
    obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=3)   # from any thread
    host.close()

The browser starts with the first call that needs it, and starts again when it has died (a new
`generation`: environments of an earlier one are not used again).
"""
from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future

from playwright.sync_api import sync_playwright

from .browser import launch_chromium


class BrowserHost:
    def __init__(self):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._playwright = None
        self._browser = None
        self.generation = 0
        self._thread = threading.Thread(target=self._serve, name="browser-host", daemon=True)
        self._thread.start()

    def call(self, function, *args, **kwargs):
        """`function(*args, **kwargs)` run on the browser's thread: its result, or its exception."""
        return self._submit(function, *args, **kwargs).result()

    def timed_call(self, function, *args, **kwargs):
        """Like `call`, and the milliseconds the call waited while the browser served other episodes."""
        future = self._submit(function, *args, **kwargs)
        result = future.result()
        return result, future.waited_ms

    def environment(self, make) -> HostedEnv:
        """An environment made by `make(browser)` on this browser's thread; its page work stays there."""
        return self.call(lambda: HostedEnv(self, make(self._connected_browser()), self.generation))

    def close(self) -> None:
        """Close the browser and end the thread (after the calls already handed in)."""
        self._jobs.put(None)
        self._thread.join()

    def _submit(self, function, *args, **kwargs) -> Future:
        future = Future()
        future.submitted = time.perf_counter()
        self._jobs.put((future, function, args, kwargs))
        return future

    def _connected_browser(self):
        """The browser, started (again, if it died); on the host's thread only."""
        if self._browser is None or not self._browser.is_connected():
            if self._playwright is None:
                self._playwright = sync_playwright().start()
            self._browser = launch_chromium(self._playwright)
            self.generation += 1
        return self._browser

    def _serve(self) -> None:
        try:
            while (job := self._jobs.get()) is not None:
                future, function, args, kwargs = job
                future.waited_ms = round((time.perf_counter() - future.submitted) * 1000, 2)
                try:
                    future.set_result(function(*args, **kwargs))
                except BaseException as error:  # the caller's thread raises it
                    future.set_exception(error)
        finally:
            self._shut_down()

    def _shut_down(self) -> None:
        try:
            if self._browser is not None and self._browser.is_connected():
                self._browser.close()
        finally:
            if self._playwright is not None:
                self._playwright.stop()


class HostedEnv:
    """A CrmEnv that any thread may use: reset, close and a step's page work run on its browser's thread; its
    attributes (max_steps, observations, recorder) are the environment's own. Each reset and step
    reports, as `browser_wait_ms` in its timings, how long it waited for the browser."""

    def __init__(self, host: BrowserHost, env, generation: int):
        self.__dict__.update(_host=host, _env=env, generation=generation)

    def reset(self, **kwargs):
        (obs, info), waited = self._host.timed_call(self._env.reset, **kwargs)
        info["timings"]["browser_wait_ms"] = waited
        return obs, info

    def step(self, text: str):
        """The step's page phases on the browser's thread, its scores (requests to the server) on this one."""
        env = self._env
        started, waited = self._host.timed_call(env.start_step, text)
        scored = env.score_step(started)
        if env.finish_needs_page(scored):
            answer, waited_more = self._host.timed_call(env.finish_step, scored)
            waited += waited_more
        else:
            answer = env.finish_step(scored)
        answer[4]["timings"]["browser_wait_ms"] = waited
        return answer

    def close(self) -> None:
        self._host.call(self._env.close)

    def __getattr__(self, name):
        return getattr(self._env, name)

    def __setattr__(self, name, value) -> None:
        setattr(self._env, name, value)
