"""`heap` (HeaP): a task planner turns the task and the page into a plan of policy calls
(FILL_TEXT, CHOOSE_DATE, SELECT_FLIGHT, or a plain CLICK/TYPE/CLEAR); each call is run by its
low-level policy, one page action per step, until it answers DONE. When the plan is used up the
planner is asked again; an empty plan (or STOP) ends the task."""
from __future__ import annotations

from ..env.observation import Observation
from .llm_policy import LLMPolicy
from .prompting import examples, render
from .reply import split_call

LOW_LEVEL = ("FILL_TEXT", "CHOOSE_DATE", "SELECT_FLIGHT")
PAGE_ACTIONS = ("CLICK", "TYPE", "CLEAR")
DONE = ("DONE", "RETURN")


class HeapPolicy(LLMPolicy):
    name = "heap"
    low_level = LOW_LEVEL

    def __init__(self, shots: str = "0", client=None, max_plans: int = 10, max_policy_steps: int = 6,
                 max_calls_per_step: int = 8, **options):
        super().__init__(shots, client, **options)
        self.max_plans, self.max_policy_steps, self.max_calls_per_step = max_plans, max_policy_steps, max_calls_per_step
        self.planner = render(self.prompt("heap/planner"), examples=examples(self.prompt("heap/planner_examples"), shots))
        self.policies = {name: render(self.prompt(f"heap/{name.lower()}"),
                                      examples=examples(self.prompt(f"heap/{name.lower()}_examples"), shots))
                         for name in self.low_level}

    def system_prompts(self) -> dict[str, str]:
        return {"PLANNER": self.planner, **self.policies}

    def start(self) -> None:
        self.plan: list[str] = []
        self.finished: list[str] = []  # plan entries already carried out, for the planner
        self.current: str | None = None
        self.actions: list[str] = []  # the current low-level policy's actions
        self.plans = 0

    def act(self, observation: Observation) -> tuple[str, str]:
        for _ in range(self.max_calls_per_step):
            if self.current is None and not self.plan:
                stop = self._replan(observation)
                if stop:
                    return stop
            if self.current is None:
                self.current, self.actions = self.plan.pop(0), []
            word, _ = split_call(self.current)
            if word not in PAGE_ACTIONS and word not in self.low_level:
                self._finish_entry("", "", note=f"(skipped: no policy {word})")
                continue
            outcome = self._plain_step(observation) if word in PAGE_ACTIONS else self._low_level(observation, word)
            if outcome:
                return outcome
        return self._halt(f"{self.max_calls_per_step} model calls in one step without a page action")

    def _replan(self, observation: Observation) -> tuple[str, str] | None:
        if self.plans >= self.max_plans:
            return self._halt(f"the planner was asked {self.max_plans} times")
        self.plans += 1
        reply = self.ask(self.planner, self.state_prompt(observation, self.finished), "PLANNER")
        entries = [line for line in reply.plan if split_call(line)[0] not in ("STOP", "DONE")]
        if not entries:
            answer = next((split_call(line)[1] for line in reply.plan if split_call(line)[0] == "STOP"), "done")
            return self._notes(reply.reason or "The planner has nothing left to do.", f"STOP [{answer}]")
        self.plan = entries
        self.step_notes["plan"] = list(entries)
        return None

    def _plain_step(self, observation: Observation) -> tuple[str, str] | None:
        """A plan step that is one page action (CLICK/TYPE/CLEAR): run as written."""
        return self._finish_entry(f"Plan step {self.current}.", self.current)

    def _low_level(self, observation: Observation, name: str) -> tuple[str, str] | None:
        """One call of the current low-level policy: its page action, or None when it is DONE."""
        if len(self.actions) >= self.max_policy_steps:
            self._finish_entry("", "", note=f"(gave up after {self.max_policy_steps} actions)")
            return None
        reply = self.ask(self.policies[name], self.state_prompt(observation, self.actions, self.current), name)
        if split_call(reply.action)[0] in DONE or self._repeats(reply.action):
            self._finish_entry("", "")
            return None
        self.remember(self.actions, reply)
        return self._notes(reply.reason, reply.action)

    def _repeats(self, action: str) -> bool:
        """Whether a low-level reply repeating its last action counts as DONE (not here)."""
        return False

    def _finish_entry(self, reason: str, action: str, note: str = "") -> tuple[str, str]:
        entry = self.current
        outcome = self._notes(reason, action)
        self.finished.append(f"{entry} {note}".strip())
        self.current, self.actions = None, []
        return outcome

    def _notes(self, reason: str, action: str) -> tuple[str, str]:
        self.step_notes["stack"] = ["PLANNER"] + ([self.current] if self.current else [])
        return reason, action

    def _halt(self, why: str) -> tuple[str, str]:
        self.step_notes["halt"] = why
        return self._notes(f"Stopped: {why}.", f"STOP [halted: {why}]")
