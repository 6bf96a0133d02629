"""flat, heap and step under the paper protocol (agent/experiment/protocols.py, docs/protocols.md).

Prompts come from agent/policies/prompts/paper/: no walkthrough of the CRM, and few-shot examples in HeaP
Table 3's counts cut from real pages in the papers' observation. What a policy is shown:
- flat, the HeaP planner and the SteP root see the task (and the conversation only with
  --conversation), their previous actions and the page;
- a called policy (a HeaP low-level policy, a SteP policy below the root) sees its own call, its
  own previous actions and the page: not the task, not the conversation (HeaP Sec. 4.1: a policy
  acts on its instruction; SteP Sec. 4: a policy tracks only its own subproblem).
HeaP: a plan step that is a plain CLICK or TYPE is grounded by the PAGE_ACTION low-level policy,
which answers the one page action it names (an element id), as the authors' client does; a
low-level policy that repeats its last action is done. SteP: SteP's CRM library is not
published, so the stack gets HeaP's CRM library: the root CRM and FILL_TEXT, CHOOSE_DATE,
SELECT_FLIGHT.
"""
from __future__ import annotations

from ..env.observation import Observation
from .flat import FlatPolicy
from .heap import LOW_LEVEL, HeapPolicy
from .prompting import conversation_text, history_text, render, task_text
from .step import StepPolicy

GROUNDING = "PAGE_ACTION"  # the HeaP low-level policy that grounds a plain CLICK/TYPE plan step
STEP_LIBRARY = ("CRM", "FILL_TEXT", "CHOOSE_DATE", "SELECT_FLIGHT")


class PaperContext:
    """The paper protocol's prompt folder and what each policy is shown (mixed into a method)."""

    prompt_folder = "paper/"

    def __init__(self, shots: str = "0", client=None, conversation: bool = False, **options):
        super().__init__(shots, client, **options)
        self.show_conversation = conversation

    def state_prompt(self, observation: Observation, history: list[str], job: str | None = None) -> str:
        if job is not None:  # a called policy: its own call alone
            return render("paper/call_state", job=job, history=history_text(history), observation=observation.text)
        conversation = (f"\nCONVERSATION:\n{conversation_text(self.scenario)}\n" if self.show_conversation else "")
        return render("paper/task_state", task=task_text(self.scenario), conversation=conversation,
                      history=history_text(history), observation=observation.text)


class PaperFlatPolicy(PaperContext, FlatPolicy):
    pass


class PaperHeapPolicy(PaperContext, HeapPolicy):
    low_level = (*LOW_LEVEL, GROUNDING)

    def _plain_step(self, observation: Observation) -> tuple[str, str] | None:
        if self.actions:  # its one page action is done
            self._finish_entry("", "")
            return None
        return self._low_level(observation, GROUNDING)

    def _repeats(self, action: str) -> bool:
        return bool(self.actions) and action == self.actions[-1]


class PaperStepPolicy(PaperContext, StepPolicy):
    library = STEP_LIBRARY
