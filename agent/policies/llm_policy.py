"""What the LLM policies share: the model client and its bookkeeping, asking a prompt and reading
the REASON/ACTION reply, and the per-step trace the episode loop keeps in the trajectory."""
from __future__ import annotations

from ..env.actions import PAGE_CHANNEL, SAY_CHANNEL
from ..env.modes import DEFAULT_MODES, check_modes, has_text, page_text
from ..env.observation import Observation
from ..episode.policy import Policy
from .model import ModelCalls, make_client
from .prompting import call_text, conversation_text, history_text, load_prompt, render, task_text
from .reply import Reply, parse_reply


class LLMPolicy(Policy):
    """Base of flat, step and heap. Subclasses implement `act`; they call `ask` for every model
    call and may fill `self.step_notes` (e.g. the policy stack) for the trajectory."""

    name = "llm"
    takes_shots = True
    shot_settings: tuple[str, ...] = ("0", "few")
    takes_images = False  # whether it sends image observation modes to the model
    prompt_folder = ""  # under agent/policies/prompts/; a protocol's variant has its own (e.g. "paper/")
    call_prompt = "call"  # on a call: how to speak to the customer (the SAY action), and the policy
    page_call_prompt = "call_page"  # on a call through the page alone (the page channel): its Call panel

    def __init__(self, shots: str = "0", client=None, observations=DEFAULT_MODES, on_call: bool = False,
                 channel: str = SAY_CHANNEL, **options):
        if shots not in self.shot_settings:
            raise ValueError(f"{self.name} takes shots {' or '.join(map(repr, self.shot_settings))}, not {shots!r}")
        self.observations = check_modes(observations)
        if not self.takes_images and not has_text(self.observations):
            raise ValueError(f"{self.name} reads the page as text: add a text mode (elements, axtree or html) "
                             f"to the observations {','.join(self.observations)}")
        self.shots = shots
        # A customer on the line (the hard protocol): the task says how to speak to them and the policy;
        # on the page channel their lines, the first one too, are on the page alone.
        self.on_page = on_call and channel == PAGE_CHANNEL
        # the expert suite's policy is in its knowledge base; each protocol plays the suite of its name
        # (agent/experiment/protocols.py, a layer above this one)
        self.suite = options.get("protocol")
        self.call = call_text(self.page_call_prompt if self.on_page else self.call_prompt, suite=self.suite) \
            if on_call else ""
        self.calls = ModelCalls(client or make_client(**options))
        self.scenario: dict = {}
        self.step_notes: dict = {}

    def reset(self, scenario: dict) -> None:
        self.scenario = {**scenario, "call": self.call} if self.call else scenario
        if self.on_page:  # the panel's controls named as the scenario's UI variant labels them
            self.scenario["call"] = call_text(self.page_call_prompt, int(scenario.get("ui_variant") or 0), self.suite)
            self.scenario["conversation"] = []
        self.calls.reset()
        self.step_notes = {}
        self.start()

    def start(self) -> None:
        """Per-episode state of the subclass."""

    def prompt(self, name: str) -> str:
        """The name of one of the method's prompt files, in its prompt folder."""
        return self.prompt_folder + name

    def system_prompts(self) -> dict[str, str]:
        """Each of the method's policies and its system prompt (instructions, actions, examples)."""
        raise NotImplementedError

    def usage(self) -> dict:
        return self.calls.usage()

    def trace(self) -> dict:
        """What the last act() cost and did, for the trajectory (prompt size, calls, stack...)."""
        notes, self.step_notes = self.step_notes, {}
        return {**self.calls.take_step_log(), **notes}

    def ask(self, system: str, user: str, caller: str, images: list[bytes] = ()) -> Reply:
        return parse_reply(self.calls.ask(system, user, caller, images).text)

    def state_prompt(self, observation: Observation, history: list[str], job: str | None = None) -> str:
        """The per-step user message: task, conversation, the caller's current job if any, history
        and page (agent/policies/prompts/state.txt)."""
        subtask = f"\nYOUR CURRENT JOB: {job}\n" if job else ""
        return render("state", task=task_text(self.scenario), conversation=conversation_text(self.scenario),
                      subtask=subtask, history=history_text(history),
                      observation=page_text(observation, load_prompt("image_page")))

    def remember(self, history: list[str], reply: Reply) -> None:
        """Record an issued page action in `history`; a reply without an action is remembered as
        such, so the model sees its mistake next time, and noted in the trajectory."""
        history.append(reply.action if reply.action else f"(invalid reply: {reply.problem})")
        if reply.problem:
            self.step_notes["reply_problem"] = reply.problem
