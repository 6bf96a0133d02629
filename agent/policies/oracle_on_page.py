"""The oracle driving a page someone else opened, one action at a time: what BrowserGym's and CUBE's
tasks play as their gold steps (their cheat and debug actions). The oracle reads the page as every
agent does (observe) and acts through the executor, so the CRM records and scores its actions as any
agent's. A gold line to the customer, or the call's transfer, goes to `speak(name, text)`: the
integration's own channel for the call (its chat, or the CRM's scenario routes)."""
from __future__ import annotations

from collections.abc import Callable

from ..env.actions import PAGE_CHANNEL, SAY_CHANNEL
from ..env.browser_env import CALL_ACTIONS
from ..env.executor import perform, read
from ..env.observation import observe
from .oracle import OraclePolicy


class OracleOnPage:
    """The gold steps of `scenario` on `page`; `step()` takes the next action, `done` says when none is left."""

    def __init__(self, page, scenario: dict, speak: Callable[[str, str], object], on_page: bool = False):
        self.page, self.speak = page, speak
        self.oracle = OraclePolicy(channel=PAGE_CHANNEL if on_page else SAY_CHANNEL)
        self.oracle.reset(scenario)  # raises when the gold steps came without their values
        self.observation = None  # the page as the oracle last saw it (the page is the oracle's between steps)
        self.done = False

    def step(self) -> str:
        """Take the next gold action; its text in the action grammar."""
        if self.observation is None:
            self.observation = observe(self.page, settle=True)
        text = self.oracle.act(self.observation)[1]
        action = read(text)[0]
        if action is not None and action.name in CALL_ACTIONS:  # the page does not change
            self.speak(action.name, action.value)
            return text
        action, error = perform(self.page, text, self.observation.elements)
        if action is not None and action.name == "stop":
            self.done = True
            return text
        self.observation = observe(self.page, error, settle=True)  # an error: the oracle tries once more
        self.done = self.observation.call_ended
        return text

    def play(self, limit: int) -> None:
        """Every gold action, at most `limit` of them (RuntimeError beyond)."""
        for _ in range(limit):
            self.step()
            if self.done:
                return
        raise RuntimeError(f"the gold steps did not finish in {limit} actions")
