"""The browser mode: a session's scenario worked in the CRM's page, in headless Chromium, by the
browser environment (agent/env/browser_env.py's CrmEnv) with its action grammar (agent/env/actions.py,
parsed by its one parser) and its observation modes (agent/env/modes/).

    obs = env.reset(mode="browser", observations=["elements"], task="TASK_POLICY_CANCEL", seed=3)
    obs = env.step(CallToolAction(tool_name="act", arguments={"action": "CLICK 6"}))

An action is one call of the tool `act` whose `action` is the grammar's text (`CLICK 6`,
`TYPE 7 "JFK"`, `SAY "..."`, `STOP`). All sessions of a server share its one Chromium (a
BrowserHost: Playwright's objects live on the host's thread), each on its own browser context and page.
"""
from __future__ import annotations

import base64

from openenv.core.env_server.mcp_types import Tool
from playwright.sync_api import Error as PlaywrightError

from agent.env.browser_host import BrowserHost, HostedEnv
from agent.env.kinds import make_env
from agent.env.modes import check_modes, page_text
from agent.env.observation import Observation

from .catalogue import ResetError

ACT_TOOL_NAME = "act"
IMAGE_NOTE = "(the page is in the observation's images)"
PAGE_ERRORS = (PlaywrightError, TimeoutError)  # the page or the browser broke, not the agent's action


def act_tool(action_set: str) -> Tool:
    return Tool(name=ACT_TOOL_NAME, description=f"Do one action on the CRM's page (or on the call). The actions:\n"
                                                f"{action_set}",
                input_schema={"type": "object", "properties": {"action": {"type": "string"}},
                              "required": ["action"], "additionalProperties": False})


def chosen_modes(observations) -> tuple[str, ...]:
    """The observation modes a reset names: a list, or one name or several comma-separated; the
    element list by default."""
    names = ["elements"] if observations is None else (
        observations.split(",") if isinstance(observations, str) else [str(name) for name in observations])
    try:
        return check_modes(names)
    except ValueError as error:
        raise ResetError(str(error)) from None


class BrowserSession:
    """One session's page environment, kept across its episodes while its suite and modes stay
    (a warm reset then switches the open page to the next scenario)."""

    def __init__(self, host: BrowserHost, server_url: str, max_steps: int):
        self.host, self.server_url, self.max_steps = host, server_url, max_steps
        self.env: HostedEnv | None = None
        self._made_for: tuple | None = None

    def reset(self, suite: str, modes: tuple[str, ...], on_call: bool, task: str | None, seed: int | None,
              ui_variant: str | None, customer_variant: str | None) -> tuple[Observation, dict]:
        self._open(suite, modes, on_call)
        try:
            return self.env.reset(task=task, seed=seed, ui_variant=ui_variant, customer_variant=customer_variant)
        except PAGE_ERRORS:
            self.close()  # the next reset starts on a new context
            raise

    def step(self, text: str):
        return self.env.step(text)

    @property
    def action_set(self) -> str:
        return self.env.action_set

    def close(self) -> None:
        if self.env is not None:
            try:
                self.env.close()
            except PAGE_ERRORS:  # its browser is gone already
                pass
        self.env, self._made_for = None, None

    def _open(self, suite: str, modes: tuple[str, ...], on_call: bool) -> None:
        wanted = (suite, modes, on_call)
        if self.env is not None and self._made_for == wanted and self.env.generation == self.host.generation:
            return
        self.close()
        options = {"suite": suite, "observations": modes, "on_call": on_call, "stop_on_success": True,
                   "max_steps": self.max_steps}
        self.env = self.host.environment(lambda browser: make_env("browser", self.server_url, None, options,
                                                                  browser=browser))
        self._made_for = wanted


def page_fields(observation: Observation, briefing: str | None = None) -> dict:
    """A page observation's fields of CrmObservation: its text modes as text (after the briefing,
    on a reset), its image modes as base64 PNGs, its URL and the customer's line."""
    lines = [briefing] if briefing else []
    if observation.customer and "elements" not in observation.modes:  # the element list opens with it
        lines.append(f"CUSTOMER: {observation.customer}")
    lines.append(page_text(observation, IMAGE_NOTE))
    images = {name: base64.b64encode(value).decode() for name, value in observation.modes.items()
              if isinstance(value, bytes)}
    return {"text": "\n".join(lines), "images": images, "url": observation.url,
            "customer_reply": observation.customer}
