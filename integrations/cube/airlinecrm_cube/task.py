"""One AirlineCRM scenario as a CUBE task.

reset     makes the scenario of (task, seed) on the benchmark's CRM (/generate-random-scenario, in
          the suite and UI variant of the config), opens it in CUBE's browser and returns the task
          text and the page (pruned HTML and a screenshot). In a hard task the call is in CUBE's chat
          (the customer's opening line is in the task text; send_message speaks, the reply is the
          next message; report_infeasible transfers the call), or with channel "page" on the page's
          own Call panel (the task text is the briefing alone).
evaluate  /evaluate on the page's recorded events: the reward is its success (1 or 0), its verdicts
          the info.
finished  the task succeeded, or its call ended (the customer's goodbye, a transfer, End call).
"""
from __future__ import annotations

from typing import Any, Literal

from cube.core import Observation
from cube.task import Task, TaskConfig
from cube.tool import Toolbox, ToolboxConfig
from cube_browser_tool import SyncPlaywrightTool
from cube_chat_tool import ChatTool
from pydantic import PrivateAttr

from agent.crm.client import ScenarioClient, verdicts
from agent.env.actions import PAGE_CHANNEL, SAY_CHANNEL
from agent.env.browser_env import CALL_ACTIONS, wait_until_ready
from agent.env.observation import call_has_ended, page_call_state, settle_page
from agent.env.task_text import task_text
from agent.policies.oracle_on_page import OracleOnPage

from .metadata import AirlineCrmTaskMetadata
from .tools import CrmPageConfig, CustomerChatSession, GoldStepConfig, GoldStepTool, customer_chat

Channel = Literal["say", "page"]
CHAT_ACTION = "send_message"  # CUBE's chat tool's action: a line to the customer


class AirlineCrmTask(Task[AirlineCrmTaskMetadata]):
    seed: int = 0  # the scenario's seed: seed N is the scenario `python -m agent run` plays as seed N
    channel: Channel = SAY_CHANNEL
    ui_variant: int | str | None = None  # the CRM's look (crm_app/ui_variants/); None: the plain one

    _client: ScenarioClient | None = PrivateAttr(default=None)
    _scenario: dict | None = PrivateAttr(default=None)
    _closed: bool = PrivateAttr(default=False)
    _resets: int = PrivateAttr(default=0)
    _evaluation: tuple[float, dict] | None = PrivateAttr(default=None)  # until the next action

    @property
    def chatting(self) -> bool:
        """A customer is on the line and the call is in the chat."""
        return self.metadata.customer and self.channel == SAY_CHANNEL

    def reset(self) -> tuple[Observation, dict[str, Any]]:
        if self._resets:  # a new task's tools are fresh: launching its browser again would only cost time
            self.tool.reset()
        self._resets += 1
        self._evaluation = None
        self._client = ScenarioClient(self.runtime_context["crm_url"], modality="ui",
                                      operator_token=self.runtime_context.get("operator_token"))
        self._scenario, _ = self._client.generate(self.metadata.task, self.seed, self.metadata.suite,
                                                  None if self.ui_variant is None else str(self.ui_variant))
        page = self._browser.page
        page.goto(self._scenario["url"], wait_until="domcontentloaded")
        wait_until_ready(page)
        self._connect_tools()
        text = task_text(self._scenario, CHAT_ACTION if self.chatting else None)
        return Observation.from_text(text) + self._browser.page_obs(), self._info()

    def _info(self) -> dict[str, Any]:
        keys = ("id", "scenario", "seed", "ui_variant")  # a hard task's details are the customer's: never shown
        return {**{key: self._scenario.get(key) for key in keys if key in self._scenario},
                "suite": self.metadata.suite, "channel": self.channel}

    def _connect_tools(self) -> None:
        scenario_id = self._scenario["id"]
        chat = self._find(ChatTool)
        if chat is not None:
            session: CustomerChatSession = chat.session
            session.connect(lambda text: self._client.say(scenario_id, text),
                            lambda summary: self._client.transfer(scenario_id, summary))
        gold = self._find(GoldStepTool)
        if gold is not None:
            gold.oracle = OracleOnPage(self._browser.page, self._scenario, self._speak,
                                       on_page=self.channel == PAGE_CHANNEL)

    def _speak(self, name: str, text: str) -> None:
        """A gold line to the customer, or the transfer: through the chat, as the agent's would go."""
        chat = self._find(ChatTool)
        if chat is None:  # the call is not in the chat: the scenario routes take it
            CALL_ACTIONS[name](self._client, self._scenario["id"], text)
        elif name == "say":
            chat.send_message(text)
        else:
            chat.report_infeasible(text)

    def evaluate(self, obs: Observation | None = None) -> tuple[float, dict[str, Any]]:
        # finished() and step() both ask after an action: one /evaluate serves both
        if self._evaluation is None:
            settle_page(self._browser.page)
            metrics = self._client.evaluate(self._scenario["id"])
            self._evaluation = float(bool(metrics["success"])), {**verdicts(metrics), "scenario": self._scenario["id"]}
        reward, info = self._evaluation
        return reward, dict(info)  # the caller may add to it (step adds its profiling)

    def _post_action(self, obs: Observation, role: str | None = None) -> None:
        self._evaluation = None  # the action may have changed what the CRM scores

    def finished(self, obs: Observation | None = None) -> bool:
        return self.evaluate()[0] == 1.0 or self._call_ended()

    def _call_ended(self) -> bool:
        if not self.metadata.customer:
            return False
        if self.channel == PAGE_CHANNEL:
            return call_has_ended(page_call_state(self._browser.page))
        return self._find(ChatTool).session.ended

    def close(self) -> None:
        if not self._closed:  # CUBE may close a task twice
            self._closed = True
            super().close()

    @property
    def _browser(self) -> SyncPlaywrightTool:
        return self._find(SyncPlaywrightTool)

    def _find(self, kind: type):
        """The task's tool of `kind` (None: the task has none), whether its tool is a toolbox or not."""
        if isinstance(self.tool, Toolbox):
            return self.tool.find_tool(kind)
        return self.tool if isinstance(self.tool, kind) else None


class AirlineCrmTaskConfig(TaskConfig[AirlineCrmTaskMetadata]):
    channel: Channel = SAY_CHANNEL
    ui_variant: int | str | None = None
    gold_step: bool = False  # offer the debug action gold_step (debug.py)

    def make(self, runtime_context: dict | None = None) -> AirlineCrmTask:
        if not runtime_context or "crm_url" not in runtime_context:
            raise ValueError("an AirlineCRM task needs the benchmark's CRM: make it with AirlineCrmBenchmarkConfig().make()")
        return AirlineCrmTask(metadata=self.metadata, tool_config=self.tool_config or self.default_tools(),
                              runtime_context=runtime_context, seed=self.seed or 0, channel=self.channel,
                              ui_variant=self.ui_variant)

    def default_tools(self) -> ToolboxConfig:
        """CUBE's browser; CUBE's chat with the customer where the call is in the chat; gold_step when asked."""
        tools = [CrmPageConfig()]
        if self.metadata.customer and self.channel == SAY_CHANNEL:
            tools.append(customer_chat())
        if self.gold_step:
            tools.append(GoldStepConfig())
        return ToolboxConfig(tool_configs=tools)
