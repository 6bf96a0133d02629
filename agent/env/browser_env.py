"""A gymnasium-style environment over the CRM in headless Chromium.

    env = CrmEnv("http://127.0.0.1:5000")
    obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=3)
    obs, reward, terminated, truncated, info = env.step("CLICK 6")
    env.close()

`observations` names the observation modes (agent/env/modes/) each observation carries in
`obs.modes`, e.g. ("elements", "som"); every element of `obs.elements` has its box either way.

A fresh browser context per episode, in the environment's own browser or in a running one it is
given (`browser`: the workers share one browser among many environments). After every action the page
is waited for (its recorded events acknowledged, the DOM quiet), never slept on. An action that
cannot be carried out is reported in `info["error"]` and at the top of the next observation.
`SAY "text"` is said to the scenario's customer (POST /api/customer/messages), whose reply opens the
next observation as a `CUSTOMER: ...` line. `info["metrics"]` is the server's /evaluate answer; `reward` is its `success` on the step that
ends the episode (`stop`), else 0. When an episode ends its browser context is closed and the
next episode's blank page opened right away (timed as `next_page_ms`). The server's operator
token (`operator_token`, else CRM_OPERATOR_TOKEN) lets /evaluate answer the gold steps' values.
Options (a protocol's, agent/experiment/protocols.py) set how the page is read (`reading`:
observation.Reading), the scenario `suite` asked for, `stop_on_success`: the episode then ends
(terminated, reward 1) on the first action after which /evaluate reports success
(episode_end.py), and `on_call`: a customer is on the line, and the first observation opens with
their first line as a `CUSTOMER: ...` line, as their replies do.
"""
from __future__ import annotations

import time

from playwright.sync_api import sync_playwright

from ..crm.client import ScenarioClient, ServerError
from .actions import Action
from .browser import launch_chromium
from .episode_end import step_end
from .executor import attempt, read
from .modes import DEFAULT_MODES, check_modes, extract_modes
from .observation import ELEMENT_LIST, Observation, Reading, observe

VIEWPORT = {"width": 1280, "height": 900}
READY_TIMEOUT_MS = 15_000


def wait_until_ready(page, timeout_ms: int = READY_TIMEOUT_MS) -> None:
    """Wait until the CRM app has drawn its first screen (it sets window.crm.ready).

    Polled from Python: Playwright's wait_for_function evaluates its predicate with eval inside the
    page in some versions (BrowserGym's among them), which the CRM's CSP forbids.
    """
    deadline = time.monotonic() + timeout_ms / 1000
    while not page.evaluate("() => Boolean(window.crm && window.crm.ready)"):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the CRM page did not become ready within {timeout_ms} ms: {page.url}")
        page.wait_for_timeout(50)


class CrmEnv:
    def __init__(self, server_url: str, browser=None, max_steps: int = 60, operator_token: str | None = None,
                 observations=DEFAULT_MODES, *, reading: Reading = ELEMENT_LIST, suite: str | None = None,
                 stop_on_success: bool = False, on_call: bool = False):
        self.client = ScenarioClient(server_url, operator_token=operator_token, modality="ui")  # page events
        self.max_steps = max_steps
        self.observations = check_modes(observations)
        self.reading, self.suite, self.stop_on_success = reading, suite, stop_on_success
        self.on_call = on_call  # a customer on the line: the first observation opens with their first line
        self._playwright = None
        self._browser = browser
        self._context = None
        self.page = None
        self.scenario: dict | None = None
        self.observation: Observation | None = None
        self.steps = 0
        self._blank_page_ready = False
        self._over = False
        self.recorder = None  # an agent.recording.EpisodeRecorder: screenshots and traces for the report

    def reset(self, task: str | None = None, seed: int | None = None, scenario: dict | None = None,
              ui_variant: str | None = None):
        clock = _Clock()
        # A new scenario comes with its evaluation before any action; the page load records no
        # event, so that answer stands for the loaded page too and is not asked for again.
        self.scenario, metrics = ((scenario, None) if scenario
                                  else self.client.generate(task, seed, self.suite, ui_variant))
        clock.lap("scenario")
        if not self._blank_page_ready:
            self._open_blank_page()
        self._blank_page_ready = self._over = False
        clock.lap("context")
        if self.recorder:
            self.recorder.begin(self._context)
        self.page.goto(self.scenario["url"], wait_until="domcontentloaded")
        self.observation = observe(self.page, settle=True, reading=self.reading)
        if not self.observation.ready:  # the app had not even started: wait for it, then look again
            wait_until_ready(self.page)
            self.observation = observe(self.page, settle=True, reading=self.reading)
        opening = [line["text"] for line in self.scenario.get("conversation") or [] if line.get("role") == "CUS"]
        if self.on_call and opening:
            self.observation.with_customer(opening[0])
        clock.lap("load_and_observe")
        self._extract_modes(clock)
        self.steps = 0
        if metrics is None:
            metrics = self.evaluate()
        clock.lap("evaluate")
        return self.observation, {"scenario": self.scenario, "metrics": metrics, "error": None,
                                  "timings": clock.result()}

    def step(self, text: str):
        if self.page is None or self.observation is None or self._over:
            raise RuntimeError("no episode is running: call reset() first")
        clock = _Clock()
        self.steps += 1
        action, error, reply = self._act(text)
        clock.lap("action")
        self.observation = observe(self.page, error, settle=True, reading=self.reading)
        if reply is not None:
            self.observation.with_customer(reply)
        clock.lap("observe")
        clock.split("observe", "settle", self.observation.settle_ms)
        self._extract_modes(clock)
        metrics = self.evaluate()
        clock.lap("evaluate")
        stopped = action is not None and action.name == "stop"
        end = step_end(stopped, metrics, self.steps, self.max_steps, self.stop_on_success)
        if self.recorder:  # while the page is still open: ending the episode closes it
            self._record(end.over, metrics)
            clock.lap("record")
        if end.over:
            self._end_episode()
            clock.lap("next_page")
        info = {"action": str(action) if action else text, "error": error, "metrics": metrics,
                "answer": action.value if stopped else None, "succeeded": end.succeeded, "timings": clock.result()}
        if reply is not None:
            info["customer"] = reply
        return self.observation, end.reward, end.terminated, end.truncated, info

    def evaluate(self) -> dict:
        return self.client.evaluate(self.scenario["id"])

    def close(self) -> None:
        if self.recorder and self._context is not None and not self._over:
            self.recorder.end(self._context, failed=True)  # an episode broke off: keep its trace
        if self._context is not None:
            self._context.close()
            self._context = None
        if self._playwright is not None:
            self._browser.close()
            self._playwright.stop()
            self._playwright = None

    def _extract_modes(self, clock: _Clock) -> None:
        """The observation modes asked for, timed together (`modes_ms`) and each (`mode_<name>_ms`)."""
        timings = extract_modes(self.page, self.observation, self.observations)
        clock.lap("modes")
        clock.note({f"mode_{name}_ms": ms for name, ms in timings.items()})

    def _act(self, text: str) -> tuple[Action | None, str | None, str | None]:
        """(the action, its error, the customer's reply to a SAY)."""
        action, error = read(text)
        if action is None:
            return None, error, None
        if action.name != "say":
            return action, attempt(self.page, action, self.observation.elements), None
        try:
            return action, None, self.client.say(self.scenario["id"], action.value)
        except ServerError as error:
            return action, str(error), None

    def _record(self, over: bool, metrics: dict) -> None:
        self.recorder.after_step(self.page, self.steps)
        if over:
            self.recorder.end(self._context, failed=not metrics.get("success"))

    def _end_episode(self) -> None:
        """Release the finished episode's context and open the next one's blank page now, so
        that reset() only has to navigate (the work is the same, it just happens earlier)."""
        self._over = True
        self._open_blank_page()
        self._blank_page_ready = True

    def _open_blank_page(self) -> None:
        if self._browser is None:
            self._playwright = sync_playwright().start()
            self._browser = launch_chromium(self._playwright)
        if self._context is not None:
            self._context.close()
        self._context = self._browser.new_context(viewport=VIEWPORT)
        self._context.set_default_timeout(READY_TIMEOUT_MS)
        self.page = self._context.new_page()

    def __enter__(self) -> CrmEnv:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Clock:
    """Milliseconds per phase, plus the total."""

    def __init__(self):
        self._start = self._last = time.perf_counter()
        self._laps: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self._laps[f"{name}_ms"] = round((now - self._last) * 1000, 2)
        self._last = now

    def split(self, name: str, part: str, part_ms: float) -> None:
        """Carve `part` (measured elsewhere, e.g. in the page) out of the lap `name`."""
        whole = self._laps[f"{name}_ms"]
        self._laps[f"{part}_ms"] = min(part_ms, whole)
        self._laps[f"{name}_ms"] = round(whole - self._laps[f"{part}_ms"], 2)

    def note(self, parts: dict[str, float]) -> None:
        """Record details of a lap (not added to the total)."""
        self._laps.update(parts)

    def result(self) -> dict[str, float]:
        return {**self._laps, "total_ms": round((self._last - self._start) * 1000, 2)}
