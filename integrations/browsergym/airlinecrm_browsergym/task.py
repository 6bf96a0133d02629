"""One BrowserGym task per CRM task type, over the CRM's scenario routes.

setup     makes the scenario of (task, seed), opens its url, and gives its instruction as the goal
          (a hard-suite task: with the customer's opening line)
validate  scores the page's recorded events with /evaluate: reward = success; done when the task
          succeeded or the agent sent its answer (a chat message) or gave up. In a hard-suite task
          the agent's chat messages are lines to the customer on the line: each goes to the CRM's
          customer, whose reply is the user's next chat message; done when the task succeeded, the
          agent gave up, or the customer ended the call. With the task keyword channel="page" the
          call is on the page alone (its Call panel): the goal is the briefing, the chat is not
          used, and the task is done when the page says the call ended (End call, or a transfer)
cheat     plays the scenario's gold steps on the page (the harness's oracle); it needs the gold
          values, which a server may keep for its operator: requests carry the operator token when
          there is one (the embedded server's own; for AIRLINECRM_URL, CRM_OPERATOR_TOKEN or the
          operator_token task argument)
teardown  ends the scenario: waits for the page's last events and leaves it, so nothing more is
          recorded in it
"""
from __future__ import annotations

from browsergym.core.task import AbstractBrowserTask

from agent.crm.client import ScenarioClient, verdicts
from agent.env.actions import PAGE_CHANNEL, SAY_CHANNEL
from agent.env.browser_env import CALL_ACTIONS, VIEWPORT, wait_until_ready
from agent.env.observation import call_has_ended, page_call_state, settle_page
from agent.env.task_text import task_text
from agent.policies.oracle_on_page import OracleOnPage
from scenarios.customer.simulator import CLOSING
from scenarios.tasks import EXPERT_TASKS, HARD_TASKS

from .chromium import use_debian_chromium
from .server import crm_server

CHEAT_STEP_LIMIT = 100
ANSWER_ROLES = ("assistant", "infeasible")  # chat messages by which an agent ends its task
NO_REASON = "The agent reported the request infeasible."  # a transfer's summary when report_infeasible gave none


class AirlineCrmTask(AbstractBrowserTask):
    """A scenario of `task_name` (a CRM task type, e.g. TASK_BOOK_FLIGHT) with BrowserGym's seed."""

    task_name = ""
    suite: str | None = None  # "hard" or "expert" for those suites' tasks (a customer on the line); None: the server's own

    @classmethod
    def get_task_id(cls) -> str:
        return "airlinecrm." + cls.task_name.removeprefix("TASK_").lower().replace("_", "-")

    def __init__(self, seed: int | None, server_url: str | None = None, operator_token: str | None = None,
                 ui_variant: int | str | None = None, channel: str = SAY_CHANNEL):
        super().__init__(seed)
        self.seed = seed
        self.viewport = dict(VIEWPORT)
        self.slow_mo = 0  # the page is waited for by its own signals (validate settles it), not by delays
        self.timeout = 10_000
        use_debian_chromium()  # before BrowserGym launches its browsers
        url, token = crm_server(server_url, operator_token)
        self.client = ScenarioClient(url, operator_token=token, modality="ui")  # scores the page events
        self.ui_variant = None if ui_variant is None else str(ui_variant)  # the CRM's look (crm_app/ui_variants.py)
        self.scenario: dict | None = None
        self.page = None
        self.forwarded = 0  # chat messages already seen (a hard task's lines to the customer)
        self.on_page = channel == PAGE_CHANNEL  # a hard task's call on the page's Call panel, not in the chat

    def setup(self, page) -> tuple[str, dict]:
        self.scenario, _ = self.client.generate(self.task_name, self.seed, self.suite, self.ui_variant)
        self.page = page
        self.forwarded = 0
        page.goto(self.scenario["url"], wait_until="domcontentloaded")
        wait_until_ready(page)
        # A hard task's details are the customer's hidden facts: the agent's side never gets them.
        shown = ("id", "scenario", "seed", "conversation") + (() if self.suite else ("details",))
        return self._goal(), {key: self.scenario.get(key) for key in shown}

    @property
    def chatting(self) -> bool:
        """A customer is on the line and the call is in BrowserGym's chat."""
        return bool(self.suite) and not self.on_page

    def _goal(self) -> str:
        return task_text(self.scenario, "send_msg_to_user" if self.chatting else None)

    def validate(self, page, chat_messages: list[dict]) -> tuple[float, bool, str, dict]:
        reply = self._forward(chat_messages) if self.chatting else ""
        settle_page(page)
        metrics = self.client.evaluate(self.scenario["id"])
        success = bool(metrics["success"])
        last = chat_messages[-1]["role"] if chat_messages else None
        if self.on_page:
            ended = call_has_ended(page_call_state(page))
        else:
            ended = last == "infeasible" or reply.endswith(CLOSING) if self.suite else last in ANSWER_ROLES
        return float(success), success or ended, reply, verdicts(metrics)

    def _forward(self, chat_messages: list[dict]) -> str:
        """Say the agent's new chat messages to the customer; the customer's replies. BrowserGym's chat
        opens with its assistant's greeting and the goal as the user's message: no line of the call.
        `report_infeasible(reason)` transfers the call to a supervisor, the reason its summary."""
        if not self.forwarded:
            self.forwarded = next((i + 1 for i, m in enumerate(chat_messages) if m["role"] == "user"), 0)
        new = [m for m in chat_messages[self.forwarded:] if m["role"] in ("assistant", "infeasible")]
        self.forwarded = len(chat_messages)
        said = {"assistant": self.client.say, "infeasible": self.client.transfer}
        return " ".join(said[m["role"]](self.scenario["id"], m["message"] or NO_REASON) for m in new)

    def cheat(self, page, chat_messages: list[dict]) -> None:
        try:
            oracle = OracleOnPage(page, self.scenario, self._speak, on_page=self.on_page)
        except ValueError:
            raise RuntimeError("the gold steps came without their values: the CRM shows them to its operator "
                               "only; set CRM_OPERATOR_TOKEN (or pass operator_token) to the server's token") from None
        oracle.play(CHEAT_STEP_LIMIT)

    def _speak(self, name: str, text: str) -> None:
        """A gold line to the customer (or the transfer), through the CRM's scenario routes."""
        CALL_ACTIONS[name](self.client, self.scenario["id"], text)

    def teardown(self) -> None:
        if self.page is not None and not self.page.is_closed():
            settle_page(self.page)
            self.page.goto("about:blank")
        self.page = self.scenario = None


def task_class(task_name: str) -> type[AirlineCrmTask]:
    """The AirlineCrmTask subclass of one CRM task type (BrowserGym registers one class per id)."""
    slug = task_name.removeprefix("TASK_").title().replace("_", "")
    suite = "hard" if task_name in HARD_TASKS else "expert" if task_name in EXPERT_TASKS else None
    return type(f"{slug}Task", (AirlineCrmTask,), {"task_name": task_name, "suite": suite, "__module__": __name__})
