"""A gymnasium-style environment over the CRM in headless Chromium.

    env = CrmEnv("http://127.0.0.1:5000")
    obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=3)
    obs, reward, terminated, truncated, info = env.step("CLICK 6")
    env.close()

`observations` names the observation modes (agent/env/modes/) each observation carries in
`obs.modes`, e.g. ("elements", "som"); every element of `obs.elements` has its box either way.

The page lives in the environment's own browser or in a running one it is given (`browser`: the
workers share one browser among many environments). When no pixel of it is looked at (no image
observation mode, nothing recorded), its headless window is minimized, so that Chromium draws no
frames for it (browser.stop_drawing). A step is one call into the page where the
action allows it (executor.act_and_observe: a click, a typed value or a choice is carried out with
the events a person's input sends, the page waited for, never slept on, and read); actions by
position, a real Enter and, when a pixel mode is asked for, clicks (so screenshots show the hover)
use real input. An action that cannot be carried out is reported in `info["error"]` and at the top
of the next observation. `SAY "text"` is said to the scenario's customer (POST
/api/customer/messages), whose reply opens the next observation as a `CUSTOMER: ...` line;
`TRANSFER "summary"` hands the call to a supervisor (POST /api/customer/transfer) and ends the episode.

Scores: `info["metrics"]` is the server's /evaluate answer on the step that ends the episode, with
every step's scores in `info["step_metrics"]`, all in one request (progress.py); before that it is
None, unless scores are asked after every step (`metrics_every_step`, a stop on success, a customer
on the line). `reward` is the answer's `success` on the step that ends the episode (`stop`), else 0.
The server's operator token (`operator_token`, else CRM_OPERATOR_TOKEN) lets /evaluate answer the
gold steps' values.

Resets are warm (`warm_resets`): the page the last episode used switches to the new scenario inside
the app, its first observation the one a newly loaded page gives (`info["warm_reset"]`), its browser
history started afresh (Back reaches no earlier episode's scenario); a page of
another look (suite, UI variant), a scenario given from outside, a recorder (a context and trace
per episode) or a page that cannot switch gets a new browser context and a page load instead.
Options (a protocol's, agent/experiment/protocols.py) set how the page is read (`reading`:
observation.Reading), the scenario `suite` asked for, `stop_on_success`: the episode then ends
(terminated, reward 1) on the first action after which /evaluate reports success
(episode_end.py), and `on_call`: a customer is on the line, and the first observation opens with
their first line as a `CUSTOMER: ...` line, as their replies do. With `channel` "page" the call
reaches the agent through the page alone: no `CUSTOMER:` lines, SAY and TRANSFER refused as unknown
actions, and the episode ends when the page's call panel says the call has ended (End call, or a
transfer on the Transfer to supervisor screen) as it does on STOP.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from ..crm.client import ScenarioClient, ServerError
from .actions import PAGE_CHANNEL, SAY_CHANNEL, Action, describe_actions
from .browser import launch_chromium, stop_drawing
from .episode_end import StepEnd, step_end
from .executor import act_and_observe, attempt, read
from .modes import DEFAULT_MODES, check_modes, devtools_session, extract_modes, has_images
from .observation import ELEMENT_LIST, Observation, Reading, call_page, observation_from, observe
from .progress import EpisodeProgress

VIEWPORT = {"width": 1280, "height": 900}
# The call's actions, carried out by the CRM's scenario endpoints, not on the page: each answers with the
# customer's `reply` and the rows the call has stored (`lines`, a timeline mark's second number).
CALL_ACTIONS = {"say": ScenarioClient.say_answer, "transfer": ScenarioClient.transfer_answer}
READY_TIMEOUT_MS = 30_000  # a loaded 2-core machine has taken over 15 s to load the page


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
                 stop_on_success: bool = False, on_call: bool = False, channel: str = SAY_CHANNEL,
                 warm_resets: bool = True, metrics_every_step: bool = False):
        self.client = ScenarioClient(server_url, operator_token=operator_token, modality="ui")  # page events
        self.max_steps = max_steps
        self.observations = check_modes(observations)
        # with a pixel mode clicks use the real mouse, so that screenshots show what it hovers
        self._real_mouse = has_images(self.observations)
        self.reading, self.suite, self.stop_on_success = reading, suite, stop_on_success
        self.on_call = on_call  # a customer on the line: the first observation opens with their first line
        self.on_page = channel == PAGE_CHANNEL  # ... unless the call is on the page alone (actions.CHANNELS)
        self._playwright = None
        self._browser = browser
        self._context = None
        self.page = None
        self.scenario: dict | None = None
        self.observation: Observation | None = None
        self.steps = 0
        self._blank_page_ready = False
        self._over = False
        self.warm_resets = warm_resets  # a new scenario switched to inside the open page (see _switch_page)
        self._page_look = None  # (suite, UI variant) of the page open now
        self.metrics_every_step = metrics_every_step  # else per-step scores come at the end (progress.py)
        self.progress: EpisodeProgress | None = None
        self._call_lines: int | None = None  # the rows the scenario's call has stored, as SAY and TRANSFER answered
        self.recorder = None  # an agent.recording.EpisodeRecorder: screenshots and traces for the report

    def reset(self, task: str | None = None, seed: int | None = None, scenario: dict | None = None,
              ui_variant: str | None = None, customer_variant: str | None = None):
        clock = _Clock()
        # A new scenario comes with its evaluation before any action; the page load records no
        # event, so that answer stands for the loaded page too and is not asked for again.
        self.scenario, metrics = ((scenario, None) if scenario
                                  else self.client.generate(task, seed, self.suite, ui_variant, customer_variant))
        clock.lap("scenario")
        look = (self.suite, self.scenario.get("ui_variant", 0)) if scenario is None else None
        self.observation = self._switch_page(look)
        warm = self.observation is not None
        if not warm:
            self._load_page(clock)
        self._page_look, self._over = look, False
        opening = [line["text"] for line in self.scenario.get("conversation") or [] if line.get("role") == "CUS"]
        if self.on_call and opening and not self.on_page:
            self.observation.with_customer(opening[0])
        clock.lap("load_and_observe")
        self._extract_modes(clock)
        self.steps = 0
        self._call_lines = 0 if scenario is None else None  # a new scenario's call has stored nothing
        self.progress = EpisodeProgress(self.client, self.scenario["id"], self._scores_every_step(),
                                        call="expected" in (self.scenario.get("details") or {}))
        if metrics is None:
            metrics = self.evaluate()
        clock.lap("evaluate")
        return self.observation, {"scenario": self.scenario, "metrics": metrics, "error": None,
                                  "warm_reset": warm, "timings": clock.result()}

    def step(self, text: str):
        return self.finish_step(self.score_step(self.start_step(text)))

    # A step in three phases, so that a shared browser's thread (browser_host.py) does only the two
    # that touch the page and serves other episodes while this one waits for its scores.
    def start_step(self, text: str) -> PendingStep:
        """The action carried out and the page read after it (the page's phase)."""
        if self.page is None or self.observation is None or self._over:
            raise RuntimeError("no episode is running: call reset() first")
        clock = _Clock()
        self.steps += 1
        action, self.observation, reply = self._act_and_observe(text)
        if reply is not None:
            self.observation.with_customer(reply)
        clock.lap("action")  # carried out, waited for and read in one page call where it can be
        clock.split("action", "settle", self.observation.settle_ms)
        clock.split("action", "observe", self.observation.observe_ms)
        self._extract_modes(clock)
        return PendingStep(text, action, reply, self.observation.error, clock)

    def score_step(self, step: PendingStep) -> PendingStep:
        """The step's scores where they are asked now, whether it ends the episode, and if so the final
        scores with every step's (requests to the server only: no page work)."""
        lines = self.observation.call_lines if self.on_page else self._call_lines
        step.metrics = self.progress.after_step(self.observation.page_events, lines)
        step.clock.lap("evaluate")
        action = step.action
        step.stopped = action is not None and (action.name == "stop" or (action.name == "transfer" and
                                                                          step.reply is not None)
                                               or self._call_ended())
        step.end = step_end(step.stopped, step.metrics or {}, self.steps, self.max_steps, self.stop_on_success)
        if step.end.over:  # the final scores, and each step's where they were not asked right after it
            step.metrics, step.step_metrics = self.progress.at_end(step.metrics)
            step.end = step_end(step.stopped, step.metrics, self.steps, self.max_steps, self.stop_on_success)
            step.clock.lap("timeline")
        return step

    def finish_needs_page(self, step: PendingStep) -> bool:
        """Whether finish_step touches the page: a recorder's screenshot, or a finished episode's page
        released without warm resets."""
        return bool(self.recorder) or (step.end.over and not self.warm_resets)

    def finish_step(self, step: PendingStep):
        """The recording and, at the end, the page released; the step's gymnasium answer."""
        clock, end, metrics = step.clock, step.end, step.metrics
        if self.recorder:  # while the page is still open: ending the episode closes it
            self._record(end.over, metrics)
            clock.lap("record")
        if end.over:
            self._end_episode()
            clock.lap("next_page")
        action = step.action
        info = {"action": str(action) if action else step.text, "error": step.error, "metrics": metrics,
                "answer": action.value if step.stopped else None, "succeeded": end.succeeded,
                "timings": clock.result()}
        if step.reply is not None:
            info["customer"] = step.reply
        if step.step_metrics is not None:
            info["step_metrics"] = step.step_metrics
        return self.observation, end.reward, end.terminated, end.truncated, info

    def evaluate(self) -> dict:
        return self.client.evaluate(self.scenario["id"])

    @property
    def action_set(self) -> str:
        """The actions this environment takes, as prompt text (SAY and TRANSFER when a customer is on
        the line and the call is not on the page alone)."""
        return describe_actions(coordinates=True, conversation=self.on_call and not self.on_page)

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

    def _call_ended(self) -> bool:
        """On the page channel: the page's call panel says the call has ended or was transferred."""
        return self.on_page and self.observation.call_ended

    def _scores_every_step(self) -> bool:
        """Whether /evaluate is asked after every step (progress.py): when asked for, when a success
        ends the episode, and when the scenario hides its details (whether a customer is on the
        line, whose lines the marks would count, is not known)."""
        return self.metrics_every_step or self.stop_on_success or self.scenario.get("details") is None

    def _switch_page(self, look: tuple | None) -> Observation | None:
        """The warm reset: the page of the last episode, when it shows the same look (suite and UI
        variant), starts over on the new scenario inside the app (page_agent.js switchScenario),
        and its first observation is the one a newly loaded page gives. None: a page must be loaded
        (another look, a scenario given from outside, a recorder keeping a context per episode,
        or a page that is gone or cannot switch)."""
        if not self.warm_resets or look is None or look != self._page_look or self.recorder or self.page is None:
            return None
        options = self.reading.page_options or {}
        try:
            data = call_page(self.page, "switchScenario", self.scenario["id"], self.scenario["url"], options)
            if not data.get("switched"):
                return None
            # The page's history holds the earlier episodes' scenarios: the new one starts its own,
            # so that Back at its first screen reaches no other scenario (as on a new page).
            devtools_session(self.page).send("Page.resetNavigationHistory")
        except PlaywrightError:
            return None
        return observation_from(data, None, self.reading)

    def _load_page(self, clock: _Clock) -> None:
        """A new browser context (unless the finished episode left one ready) and the scenario's page loaded."""
        if not self._blank_page_ready:
            self._open_blank_page()
        self._blank_page_ready = False
        clock.lap("context")
        if self.recorder:
            self.recorder.begin(self._context)
        elif not self._real_mouse:
            stop_drawing(self.page)  # no pixel of this episode is looked at
        self.page.goto(self.scenario["url"], wait_until="domcontentloaded")
        self.observation = observe(self.page, settle=True, reading=self.reading)
        if not self.observation.ready:  # the app had not even started: wait for it, then look again
            wait_until_ready(self.page)
            self.observation = observe(self.page, settle=True, reading=self.reading)

    def _extract_modes(self, clock: _Clock) -> None:
        """The observation modes asked for, timed together (`modes_ms`) and each (`mode_<name>_ms`)."""
        timings = extract_modes(self.page, self.observation, self.observations)
        clock.lap("modes")
        clock.note({f"mode_{name}_ms": ms for name, ms in timings.items()})

    def _act_and_observe(self, text: str) -> tuple[Action | None, Observation, str | None]:
        """(the action, the page after it, the customer's reply to a SAY): in one page call where
        the action allows it (executor.act_and_observe)."""
        action, error = read(text, conversation=not self.on_page)
        reply = None
        if action is not None and action.name in CALL_ACTIONS:
            try:
                answer = CALL_ACTIONS[action.name](self.client, self.scenario["id"], action.value)
                reply, self._call_lines = answer["reply"], answer.get("lines")
            except ServerError as refused:
                error = str(refused)
        elif action is not None:
            observation = act_and_observe(self.page, action, self.observation.elements, self.reading,
                                          real_mouse=self._real_mouse)
            if observation is not None:
                return action, observation, None
            error = attempt(self.page, action, self.observation.elements)
        return action, observe(self.page, error, settle=True, reading=self.reading), reply

    def _record(self, over: bool, metrics: dict) -> None:
        self.recorder.after_step(self.page, self.steps)
        if over:
            self.recorder.end(self._context, failed=not metrics.get("success"))

    def _end_episode(self) -> None:
        """With warm resets the page stays for the next episode; else release the finished
        episode's context and open the next one's blank page now, so that reset() only has to
        navigate (the work is the same, it just happens earlier)."""
        self._over = True
        if self.warm_resets and not self.recorder:
            return
        self._page_look = None
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


@dataclass
class PendingStep:
    """A step between its phases (CrmEnv.start_step, score_step, finish_step)."""
    text: str
    action: Action | None
    reply: str | None
    error: str | None
    clock: _Clock
    metrics: dict | None = None
    step_metrics: list[dict] | None = None
    stopped: bool = False
    end: StepEnd | None = None


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
