"""A gymnasium-style environment over the CRM's JSON API: a scenario worked through tool calls,
never a browser. The same interface as CrmEnv (browser_env.py), so an episode is played in either:

    env = ApiEnv("http://127.0.0.1:5000")
    obs, info = env.reset(task="TASK_CANCEL_FLIGHT", seed=3)   # obs.tools: the tool definitions
    obs, reward, terminated, truncated, info = env.step('get_booking {"code": "WQCWGR"}')
    obs.text       # the API's answer (or the error) that the tool call got
    env.step("STOP [The booking is cancelled.]")

One step is one tool call, written as `tool_action` writes it (`name {"argument": value}`, see
agent/crm/tools.py), or `STOP [answer]`, which ends the episode. `info["result"]` is the call and what
it got (tool, arguments, status, error, text), which is also the next observation's text. A call
that fails (the API's 4xx, an unknown tool, arguments that do not fit) is reported in
`info["error"]`; it never raises. `info["metrics"]` is /evaluate's answer in the api modality
(progress counts the gold calls met, docs/scenarios.md); `reward` is its `success` on the step
that ends the episode. A protocol's `suite` and `stop_on_success` work as in CrmEnv.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from scenarios.suites import has_knowledge_base

from ..crm.client import ScenarioClient
from ..crm.tools import ScenarioTools, ToolCallError, ToolResult, fetch_openapi, parse_tool_action
from .actions import parse_action
from .episode_end import step_end
from .observation import count_tokens

MODALITY = "api"
TRANSFER_TOOL = "transfer_to_supervisor"  # ends the call, and so the episode
CUSTOMER_TOOLS = ("message_customer", TRANSFER_TOOL)  # tools whose answer holds the customer's reply
FIRST_TEXT = "No tool has been called yet."


@dataclass
class ToolObservation:
    """What an agent working the API sees: the last call's result, and the tools it may call."""

    text: str
    tools: list[dict]  # the tool definitions, OpenAI chat format
    call: dict | None = None  # the last call: tool, arguments, status, error
    url: str = ""  # the CRM server the tools call
    modes: dict = field(default_factory=dict)  # no page, so no observation modes
    elements: list = field(default_factory=list)
    error: str | None = None

    @property
    def tokens(self) -> int:
        return count_tokens(self.text)


class ApiEnv:
    def __init__(self, server_url: str, max_steps: int = 60, operator_token: str | None = None, *,
                 suite: str | None = None, stop_on_success: bool = False, on_call: bool = False):
        self.server_url = server_url.rstrip("/")
        self.on_call = on_call  # a customer on the line: the tools to speak to them and find bookings by name
        self.client = ScenarioClient(server_url, operator_token=operator_token, modality=MODALITY)
        self.max_steps, self.suite, self.stop_on_success = max_steps, suite, stop_on_success
        self.observations: tuple[str, ...] = ()  # the worker sets what a browser would observe; no page here
        self.recorder = None  # nothing to screenshot
        self.scenario: dict | None = None
        self.tools: ScenarioTools | None = None
        self.observation: ToolObservation | None = None
        self.steps = 0
        self._document: dict | None = None  # the OpenAPI document, fetched once
        self._over = False

    def reset(self, task: str | None = None, seed: int | None = None, ui_variant: str | None = None,
              customer_variant: str | None = None):
        started = time.perf_counter()
        # the UI variant is recorded, though there is no page here
        self.scenario, metrics = self.client.generate(task, seed, self.suite, ui_variant, customer_variant)
        if self._document is None:
            self._document = fetch_openapi(self.server_url)
        self.tools = ScenarioTools(self.server_url, self.scenario["id"], self._document, on_call=self.on_call,
                                   knowledge_base=has_knowledge_base(self.suite))
        self.observation = ToolObservation(FIRST_TEXT, self.tools.definitions(), url=self.server_url)
        self.steps, self._over = 0, False
        timings = {"scenario_ms": _ms(started), "total_ms": _ms(started)}
        return self.observation, {"scenario": self.scenario, "metrics": metrics, "error": None, "timings": timings}

    def step(self, text: str):
        if self.tools is None or self._over:
            raise RuntimeError("no episode is running: call reset() first")
        started = time.perf_counter()
        self.steps += 1
        stopped = text.strip().split(" ", 1)[0].lower() == "stop"
        answer, result = (parse_action(text).value, None) if stopped else (None, self._call(text))
        stopped = stopped or (result is not None and result.tool == TRANSFER_TOOL and not result.is_error)
        acted = time.perf_counter()
        metrics = self.evaluate()
        end = step_end(stopped, metrics, self.steps, self.max_steps, self.stop_on_success)
        self._over = end.over
        timings = {"action_ms": _ms(started, acted), "evaluate_ms": _ms(acted), "total_ms": _ms(started)}
        info = {"action": text, "error": result.error if result else None, "metrics": metrics, "answer": answer,
                "succeeded": end.succeeded, "timings": timings}
        if result:
            info["result"] = result.record()
            if result.tool in CUSTOMER_TOOLS and not result.is_error:
                info["customer"] = result.body.get("reply")
        return self.observation, end.reward, end.terminated, end.truncated, info

    def _call(self, text: str) -> ToolResult:
        """Run the tool call `text`; its result is also the next observation."""
        try:
            name, arguments = parse_tool_action(text)
        except ToolCallError as error:
            result = ToolResult(text.strip().split(" ", 1)[0], None, None, {}, str(error))
        else:
            result = self.tools.call(name, arguments)
        self.observation = ToolObservation(result.text(), self.observation.tools, result.record(), self.server_url,
                                           error=result.error)
        return result

    def evaluate(self) -> dict:
        return self.client.evaluate(self.scenario["id"])

    @property
    def action_set(self) -> list[dict]:
        """The tools of this episode's scenario, as OpenAI tool definitions (after reset)."""
        return self.tools.definitions() if self.tools else []

    def close(self) -> None:
        """Nothing to release: every call is its own HTTP request."""

    def __enter__(self) -> ApiEnv:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _ms(start: float, end: float | None = None) -> float:
    return round(((end if end is not None else time.perf_counter()) - start) * 1000, 2)
