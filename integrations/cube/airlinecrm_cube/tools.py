"""The agent's tools in an AirlineCRM task: CUBE's own browser and chat tools, with four things of ours.

- Debian's Chromium with the project's flags (agent/env/browser.py), as everywhere in the project:
  CUBE's browser session launches Playwright's own download otherwise, which machines without network
  access do not have.
- The page is observed once it has settled (agent/env/page_agent.js: its requests answered, its DOM
  quiet), as the project's own environment observes it: a search's results are in the observation
  that follows the click.
- The customer behind the chat: in a hard task whose call is in the chat, a line the agent sends
  (send_message) goes to the CRM's customer, whose reply is the chat's next message (role "user"), and
  report_infeasible(reason) transfers the call to a supervisor with that reason as its summary.
- A debug-only action, gold_step: the scenario's next gold action, taken by the project's oracle on
  the page (agent/policies/oracle_on_page.py). Only the debug benchmark (debug.py) offers it.
"""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable

from cube.tool import Tool, ToolConfig, tool_action
from cube_browser_playwright import PlaywrightSession, PlaywrightSessionConfig, Viewport
from cube_browser_tool import PlaywrightConfig, SyncPlaywrightTool
from cube_browser_playwright.playwright_session import _read_cdp_url
from cube_chat import BasicChatConfig, BasicChatSession
from cube_chat_tool import ChatToolConfig
from playwright.sync_api import sync_playwright
from pydantic import Field

from agent.env.browser import chromium_args, chromium_executable
from agent.env.browser_env import VIEWPORT
from agent.env.observation import settle_page
from scenarios.customer.simulator import CLOSING, HOLDING

CUSTOMER_ROLE = "user"  # the chat's role of the customer's lines (the agent's are "assistant")


class DebianChromiumConfig(PlaywrightSessionConfig):
    """CUBE's Playwright session on Debian's Chromium (`executable_path`, else where the project finds
    it: CRM_CHROMIUM or /usr/bin/chromium; None there: Playwright's own) with the project's flags."""

    executable_path: str | None = None
    viewport: Viewport = Field(default_factory=lambda: Viewport(**VIEWPORT))

    def make(self) -> PlaywrightSession:
        playwright = sync_playwright().start()
        profile = tempfile.mkdtemp(prefix="airlinecrm-cube-")
        try:
            ours = {"headless": self.headless, "executable_path": self.executable_path or chromium_executable(),
                    "args": chromium_args("--remote-debugging-port=0"),  # CUBE's sessions have a CDP address
                    "viewport": {"width": self.viewport.width, "height": self.viewport.height}}
            context = playwright.chromium.launch_persistent_context(profile, **{**self.pw_extra_kwargs, **ours})
            if self.timeout is not None:
                context.set_default_timeout(self.timeout)
            page = context.pages[0] if context.pages else context.new_page()
            return PlaywrightSession(playwright=playwright, page=page, context=context,
                                     cdp_url=_read_cdp_url(profile), user_data_dir=profile)
        except BaseException:
            playwright.stop()
            shutil.rmtree(profile, ignore_errors=True)
            raise


class CrmPageTool(SyncPlaywrightTool):
    def _wait_dom_loaded(self) -> None:
        super()._wait_dom_loaded()
        settle_page(self.page)


class CrmPageConfig(PlaywrightConfig):
    """CUBE's browser tool on Debian's Chromium, observing the settled page."""

    browser: PlaywrightSessionConfig = Field(default_factory=DebianChromiumConfig)

    def make(self, container=None) -> CrmPageTool:
        return CrmPageTool(config=self, session=self.browser.make())


class CustomerChatSession(BasicChatSession):
    """A chat whose other side is the CRM's customer once `connect`ed to a scenario's call."""

    def __init__(self) -> None:
        super().__init__()
        self._say: Callable[[str], str] | None = None
        self._transfer: Callable[[str], str] | None = None
        self.ended = False  # the customer said goodbye, or the call was transferred

    def connect(self, say: Callable[[str], str], transfer: Callable[[str], str]) -> None:
        self._say, self._transfer = say, transfer

    def send_message(self, text: str) -> None:
        super().send_message(text)
        if self._say is not None and not self.ended:
            reply = self._say(text)
            self.ended = reply.endswith(CLOSING)
            super().add_message(CUSTOMER_ROLE, reply)

    def add_message(self, role, msg: str) -> None:
        super().add_message(role, msg)
        if role == "infeasible" and self._transfer is not None and not self.ended:  # report_infeasible
            self.ended = True
            super().add_message(CUSTOMER_ROLE, self._transfer(msg) or HOLDING)


class CustomerChatConfig(BasicChatConfig):
    def make(self) -> CustomerChatSession:
        return CustomerChatSession()


def customer_chat() -> ChatToolConfig:
    """CUBE's chat tool with the customer on the other side."""
    return ChatToolConfig(chat=CustomerChatConfig())


class GoldStepTool(Tool):
    """The debug action: the oracle takes the scenario's next gold action (bound by the task at reset)."""

    def __init__(self) -> None:
        self.oracle = None  # agent.policies.oracle_on_page.OracleOnPage, once the task is reset

    def reset(self) -> None:
        self.oracle = None

    @tool_action
    def gold_step(self) -> str:
        """Take the next action of the scenario's gold path (a debug action: the project's oracle acts)."""
        if self.oracle is None:
            raise RuntimeError("the task has not been reset")
        if self.oracle.done:
            return "Every gold step is done."
        return f"Took the gold action {self.oracle.step()}"


class GoldStepConfig(ToolConfig):
    def make(self, container=None) -> GoldStepTool:
        return GoldStepTool()
