"""AirlineCRM as an OpenEnv `Environment`: each session works its own scenario through the CRM's
tools (tool mode, the default: agent/crm/tools.py, played by the API environment agent/env/api_env.py)
or in the CRM's page (`reset(mode="browser", observations=[...])`: browser_mode.py, the browser
environment's action grammar as the one tool `act`, its observation modes as the observation).

    env = AirlineCrmEnvironment("http://127.0.0.1:5000")
    obs = env.reset(seed=3, task="TASK_POLICY_CANCEL")          # obs.text: the briefing and the caller
    obs = env.step(CallToolAction(tool_name="message_customer", arguments={"text": "Hello"}))
    obs.customer_reply, obs.done, obs.reward, obs.metadata["task_progress"]

Actions are MCP tool calls (`CallToolAction`, `ListToolsAction`), so OpenEnv's HTTP /mcp route and its
MCP clients reach the same tools: the CRM's (the knowledge base's too, once the server offers them),
the customer's (`message_customer`, `transfer_to_supervisor`, which ends the episode) and `stop`
(the action grammar's STOP: ends the episode, scored as it stands). Nothing an agent sends raises:
an unknown tool, wrong arguments, a step with no episode running or after it ended, a reset that
cannot make a scenario, an action the grammar does not parse or the page cannot carry out, all come
back as the observation's `error`, and the session stays usable.
The reward is /evaluate's `success` on the step that ends the episode (0 before); every step's
metadata holds /evaluate's verdicts (success, task_progress, state_check, requests, ...) without their reasons.
"""
from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.mcp_types import (CallToolAction, CallToolObservation, ListToolsAction,
                                               ListToolsObservation, Tool, ToolError, ToolErrorType)
from openenv.core.env_server.types import Action, EnvironmentMetadata, State
from pydantic import Field

from agent.crm.client import ServerError, verdicts
from agent.crm.tools import ToolsUnavailable, tool_action, tool_names, tools_from_openapi
from agent.env.api_env import ApiEnv
from agent.env.browser_host import BrowserHost
from crm_app.version import VERSION
from scenarios.suites import SUITES

from . import catalogue
from .browser_mode import ACT_TOOL_NAME, PAGE_ERRORS, BrowserSession, act_tool, chosen_modes, page_fields

DEFAULT_SUITE = "hard"
DEFAULT_MAX_STEPS = 100  # the longest expert gold path is well within it
MODES = ("tool", "browser")
STOP_TOOL = Tool(name="stop", description="End the episode (and the call) now; it is scored as it stands. "
                                          "`answer`: what the agent found, for a question the task asked.",
                 input_schema={"type": "object", "properties": {"answer": {"type": "string"}},
                               "required": [], "additionalProperties": False})


class CrmObservation(CallToolObservation):
    """What the agent sees after a reset or a tool call."""

    tool_name: str = Field(default="", description="The tool called; empty after a reset")
    text: str = Field(default="", description="What the agent reads: the briefing and the caller's first line "
                                              "after a reset, else the call's JSON answer or its error")
    status: int | None = Field(default=None, description="The CRM API's HTTP status for the call")
    customer_reply: str | None = Field(default=None, description="The customer's reply to message_customer "
                                                                 "or transfer_to_supervisor (in browser mode: "
                                                                 "to SAY or TRANSFER; after a reset, their first line)")
    images: dict[str, str] = Field(default_factory=dict, description="Browser mode: the image observation modes "
                                                                     "asked for (screenshot, som), base64 PNG")
    url: str = Field(default="", description="Browser mode: the page's URL")


class CrmState(State):
    scenario_id: str | None = None
    task: str | None = None
    suite: str | None = None
    split: str | None = None  # train or test: the expert suite's; None in a suite without splits
    mode: str = "tool"  # or browser


class AirlineCrmEnvironment(Environment):
    SUPPORTS_CONCURRENT_SESSIONS = True  # each session makes its own scenario; the CRM keeps them apart

    def __init__(self, server_url: str, max_steps: int = DEFAULT_MAX_STEPS,
                 browser_host: Callable[[], BrowserHost] | None = None):
        super().__init__()
        self.server_url, self.max_steps = server_url.rstrip("/"), max_steps
        self.browser_host = browser_host  # the server's one Chromium, started by the first browser-mode reset
        self.env: ApiEnv | None = None
        self.page: BrowserSession | None = None  # the browser mode's page, kept across the session's episodes
        self._state = CrmState()
        self._over = True

    # --- reset -----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, episode_id: str | None = None, task: str | None = None,
              suite: str | None = None, split: str | None = None, customer_variant: str | int | None = None,
              ui_variant: str | int | None = None, mode: str = "tool", observations: str | list[str] | None = None,
              **kwargs: Any) -> CrmObservation:
        """`mode` "browser" works the scenario in the page, read in the `observations` modes
        (agent/env/modes/: a list or a comma-separated string; default the element list)."""
        suite, mode = suite or DEFAULT_SUITE, mode or "tool"
        self._state = CrmState(episode_id=episode_id or str(uuid.uuid4()), suite=suite, mode=str(mode)[:40])
        self._over = True
        self.env = None
        try:
            if kwargs:
                raise catalogue.ResetError(f"reset takes no argument {', '.join(sorted(kwargs))}")
            if mode not in MODES:
                raise catalogue.ResetError(f"Unknown mode: {str(mode)[:40]}. Choose one of {', '.join(MODES)}")
            if mode == "tool" and observations is not None:
                raise catalogue.ResetError("observations are the browser mode's: reset with mode='browser'")
            task = catalogue.choose_task(self.server_url, suite, split, task, seed)
            if mode == "browser":
                page, info = self._browser_reset(suite, chosen_modes(observations), task, seed, ui_variant,
                                                 customer_variant)
            else:
                self.close()  # a browser-mode episode before this one leaves no page open
                self.env = self._api_env(suite)
                _, info = self.env.reset(task, seed, _text(ui_variant), _text(customer_variant))
        except (catalogue.ResetError, ServerError, ToolsUnavailable, *PAGE_ERRORS) as error:
            return self._error_observation("", ToolErrorType.INVALID_ARGS, f"reset failed: {error}", done=True)
        scenario = info["scenario"]
        task = scenario.get("scenario") or task
        self._state = self._state.model_copy(update={"scenario_id": scenario["id"], "task": task,
                                                     "split": catalogue.split_of(self.server_url, suite, task)})
        self._over = False
        if mode == "browser":
            briefing = f"Task: {scenario['instruction']}"
            return CrmObservation(**page_fields(page, briefing), metadata={
                **self._metadata(info["metrics"]), "ui_variant": scenario.get("ui_variant", 0)})
        return CrmObservation(text=_briefing(scenario), metadata=self._metadata(info["metrics"]))

    def _browser_reset(self, suite: str, modes: tuple[str, ...], task, seed, ui_variant, customer_variant):
        if self.browser_host is None:
            raise catalogue.ResetError("this server has no browser: the browser mode is not offered")
        if self.page is None:
            self.page = BrowserSession(self.browser_host(), self.server_url, self.max_steps)
        return self.page.reset(suite, modes, _on_call(suite), task, seed, _text(ui_variant), _text(customer_variant))

    def _api_env(self, suite: str) -> ApiEnv:
        env = ApiEnv(self.server_url, self.max_steps, suite=suite, stop_on_success=True,
                     on_call=_on_call(suite))
        env._document = catalogue.openapi(self.server_url)  # one fetch per server, not per session
        return env

    # --- step ------------------------------------------------------------------------------------
    def step(self, action: Action, timeout_s: float | None = None, **kwargs: Any):
        if isinstance(action, ListToolsAction):
            return ListToolsObservation(tools=self.tools())
        if not isinstance(action, CallToolAction):
            return self._error_observation("", ToolErrorType.INVALID_ARGS,
                                           f"unknown action {type(action).__name__}: send call_tool or list_tools")
        name = action.tool_name
        if self._over:
            why = "the episode is over" if self._state.scenario_id else "no episode is running"
            return self._error_observation(name, ToolErrorType.EXECUTION_ERROR, f"{why}: call reset() first")
        if self._state.mode == "browser":
            return self._browser_step(name, action.arguments)
        if name != STOP_TOOL.name and name not in self.env.tools.tools:
            return self._error_observation(name, ToolErrorType.TOOL_NOT_FOUND,
                                           f"there is no tool {name!r}; the tools: {', '.join(self._tool_names())}")
        text = f"STOP [{action.arguments.get('answer', '')}]" if name == STOP_TOOL.name else \
            tool_action(name, action.arguments)
        _, reward, terminated, truncated, info = self.env.step(text)
        self._state.step_count += 1
        self._over = terminated or truncated
        result, error = info.get("result") or {}, info.get("error")
        kind = ToolErrorType.INVALID_ARGS if result.get("status") is None else ToolErrorType.EXECUTION_ERROR
        return CrmObservation(
            tool_name=name, text=result.get("text", "The episode is stopped."),
            result=None if error or not result else json.loads(result["text"]), status=result.get("status"),
            error=ToolError(error_type=kind, message=error) if error else None,
            customer_reply=info.get("customer"), done=self._over, reward=reward,
            metadata={**self._metadata(info["metrics"]), "truncated": truncated})

    def _browser_step(self, name: str, arguments: dict) -> CrmObservation:
        if name != ACT_TOOL_NAME:
            return self._error_observation(name, ToolErrorType.TOOL_NOT_FOUND,
                                           f"there is no tool {name!r} in the browser mode: call {ACT_TOOL_NAME} "
                                           f"with the action's text, e.g. {{\"action\": \"CLICK 6\"}}")
        text = arguments.get("action")
        if set(arguments) != {"action"} or not isinstance(text, str):
            return self._error_observation(name, ToolErrorType.INVALID_ARGS,
                                           f"{ACT_TOOL_NAME} takes one argument, action: the action's text "
                                           f"(a string), e.g. CLICK 6")
        try:
            page, reward, terminated, truncated, info = self.page.step(text)
        except (ServerError, *PAGE_ERRORS) as error:  # the page, browser or CRM broke; the session lives
            self._over = True
            self.page.close()
            return self._error_observation(name, ToolErrorType.EXECUTION_ERROR, f"the step failed: {error}")
        self._state.step_count += 1
        self._over = terminated or truncated
        error = info["error"]
        return CrmObservation(
            tool_name=name, **page_fields(page), done=self._over, reward=reward,
            error=ToolError(error_type=ToolErrorType.EXECUTION_ERROR, message=error) if error else None,
            metadata={**self._metadata(info["metrics"] or {}), "truncated": truncated, "action": info["action"]})

    def _error_observation(self, name: str, kind: ToolErrorType, message: str, done: bool | None = None):
        over = self._over if done is None else done
        return CrmObservation(tool_name=name, text=f"Error: {message}", error=ToolError(error_type=kind, message=message),
                              done=over, reward=0.0, metadata={**self._ids(), "error": message})

    def _metadata(self, metrics: dict) -> dict:
        return {**self._ids(), **shown_verdicts(metrics)}

    def _ids(self) -> dict:
        state = self._state
        return {"scenario_id": state.scenario_id, "task": state.task, "suite": state.suite, "split": state.split,
                "mode": state.mode, "episode_id": state.episode_id, "step_count": state.step_count}

    # --- tools, state, metadata ------------------------------------------------------------------
    def tools(self) -> list[Tool]:
        """The tools of the running episode (of the default suite before any reset), and stop; in
        browser mode, the one tool act, described by the action set."""
        if self._state.mode == "browser" and self.page is not None and self.page.env is not None:
            return [act_tool(self.page.action_set)]
        if self.env is not None and self.env.tools is not None:
            definitions = self.env.tools.tools.values()
        else:
            on_call = SUITES[DEFAULT_SUITE].hidden_details
            definitions = tools_from_openapi(catalogue.openapi(self.server_url), tool_names(on_call)).values()
        return [Tool(name=tool.name, description=tool.description, input_schema=tool.parameters)
                for tool in definitions] + [STOP_TOOL]

    def _tool_names(self) -> list[str]:
        return [tool.name for tool in self.tools()]

    def close(self) -> None:
        """The session's browser context, if it had one (OpenEnv calls this when a session ends)."""
        if self.page is not None:
            self.page.close()

    @property
    def state(self) -> CrmState:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(name="airlinecrm", version=VERSION,
                                   description="AirlineCRM: an airline call centre's CRM with a simulated customer "
                                               "on the line and an airline policy; scored by /evaluate.")


def shown_verdicts(metrics: dict) -> dict:
    """/evaluate's verdicts without their reasons: those name the customer's hidden facts (a code, an
    amount), and an observation's metadata may reach the model (verifiers' OpenEnv taskset shows it)."""
    shown = verdicts(metrics)
    if "state_check" in shown:
        shown["state_check"] = {key: shown["state_check"].get(key) for key in ("passed", "state_ok", "failed")}
    if "requests" in shown:
        shown["requests"] = [{"kind": request["kind"], "ok": request["ok"]} for request in shown["requests"]]
    return shown


def _briefing(scenario: dict) -> str:
    lines = [f"Task: {scenario['instruction']}"]
    lines += [f"{'CUSTOMER' if turn['role'] == 'CUS' else 'AGENT'}: {turn['text']}"
              for turn in scenario.get("conversation") or []]
    return "\n".join(lines)


def _on_call(suite: str) -> bool:
    """A customer on the line: in the suites that hide the scenario's details from the agent."""
    return SUITES[suite].hidden_details if suite in SUITES else True


def _text(value) -> str | None:
    return None if value is None else str(value)
