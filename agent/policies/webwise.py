"""`webwise` (WebWISE: step-by-step program generation over filtered DOM observations).

Each time its program is used up, the model gets the API, the task, its earlier programs and the
filtered page (agent/policies/webwise_page.py) and writes the next small program. The program is
parsed with `ast`, never executed (agent/policies/webwise_program.py); each of its calls is one
environment step, and a failing call drops the calls after it. A reply that is not an acceptable
program is shown to the model as such and asked again; after `max_calls_per_step` rejected replies
in a row the episode ends (`policy_halt`, with the last problem).

In-context examples: none (`--shots 0`), one hand-written example per task cut from real pages
(`--shots few`, prompts/webwise/<task>_examples.txt), or up to two examples per task taken from the
method's own successful zero-shot trials (`--shots auto`, agent/experiment/webwise_auto.py).
"""
from __future__ import annotations

import json
from pathlib import Path

from ..env.actions import ActionError, parse_action
from ..env.executor import resolve
from ..env.observation import Observation
from .action_queue import ActionQueue
from .llm_policy import LLMPolicy
from .prompting import NO_EXAMPLES, load_prompt, prompt_exists, render, task_text
from .webwise_page import filtered_page
from .webwise_program import ProgramError, parse_program

HEADINGS = {"0": "Examples:", "few": "An example task solved with a successful solution:",
            "auto": "Tasks like this one that you solved before, with the programs that solved them:"}


class WebwisePolicy(LLMPolicy):
    name = "webwise"
    shot_settings = ("0", "few", "auto")
    call_prompt = "webwise/call"  # speaking is the program call say(text)

    def __init__(self, shots: str = "0", client=None, auto_examples: str | None = None, max_calls_per_step: int = 4,
                 **options):
        super().__init__(shots, client, **options)
        self.max_calls_per_step = max_calls_per_step
        self.examples_file = auto_examples if shots == "auto" else None  # the file the run chose its examples into
        if shots == "auto" and not auto_examples:
            raise ValueError("webwise --shots auto reads its examples from the run's examples file; give auto_examples")
        self.queue = ActionQueue()
        self._auto: dict | None = None

    def system_prompts(self) -> dict[str, str]:
        return {"WEBWISE": render("webwise/system", examples=f"{HEADINGS[self.shots]}\n{NO_EXAMPLES}")}

    def start(self) -> None:
        self.marks: dict[int, str] = {}
        self.programs: list[dict] = []
        self.queue.clear()
        self.sent: tuple[str, int | None] | None = None
        self.example_names, examples = self._examples(self.scenario.get("scenario", ""))
        self.system = render("webwise/system", examples=f"{HEADINGS[self.shots]}\n{examples or NO_EXAMPLES}")

    def episode_context(self) -> dict:
        context = {"examples": self.example_names}
        if self.examples_file:
            context["examples_file"] = str(self.examples_file)
        return context

    def act(self, observation: Observation) -> tuple[str, str]:
        self._after_step(observation)
        if not self.queue:
            halt = self._next_program(observation)
            if halt:
                self.step_notes["halt"] = halt
                return f"Stopped: {halt}.", f"STOP [halted: {halt}]"
        action, where = self.queue.pop()
        self.step_notes["queued"] = where
        program = self.programs[-1]
        program["ran"] = where["index"]
        self.sent = (action, _target_id(action, observation))
        return f"Call {where['index']} of {where['of']} of program {len(self.programs)}: " \
               f"{program['calls'][where['index'] - 1]}", action

    def _after_step(self, observation: Observation) -> None:
        """Mark the element the last call clicked or changed, or note that it failed."""
        if self.sent is None:
            return
        action, ident = self.sent
        self.sent = None
        if observation.error:
            self.programs[-1]["error"] = observation.error
            cut = self.queue.cut_on_error(observation)
            if cut:
                self.step_notes["cut"] = cut
        elif ident is not None:
            self.marks[ident] = "clicked" if action.startswith("CLICK") else "changed"

    def _next_program(self, observation: Observation) -> str | None:
        """Ask for the next program and queue its calls; the reason to halt when every reply of
        this step was rejected."""
        page = filtered_page(observation.elements, self.marks)
        if observation.customer is not None:  # the customer's answer to its say(), as every method reads it
            page = f"CUSTOMER: {observation.customer}\n{page}"
        problems = []
        for _ in range(self.max_calls_per_step):
            user = render("webwise/state", task=task_text(self.scenario), history=self._history(), page=page)
            reply = self.calls.ask(self.system, user, "WEBWISE").text
            try:
                calls = parse_program(reply)
            except ProgramError as problem:
                problems.append(str(problem))
                self.programs.append({"rejected": str(problem)})
                self.step_notes.update(reply_problem=str(problem), reply_problems=list(problems))
                continue
            self.programs.append({"calls": [str(call) for call in calls], "ran": 0, "error": None})
            self.queue.load([call.action() for call in calls])
            self.step_notes.update(page=page, program="\n".join(map(str, calls)))
            return None
        return f"{len(problems)} replies in a row were not acceptable programs; the last: {problems[-1]}"

    def _history(self) -> str:
        entries = []
        for number, program in enumerate(self.programs, 1):
            if "rejected" in program:
                entries.append(f"Program {number} (rejected, nothing of it ran: {program['rejected']})")
                continue
            note = ""
            if program["error"]:
                note = f" (call {program['ran']} failed: {program['error']}; the calls after it did not run)"
            entries.append(f"Program {number}{note}:\n" + "\n".join(program["calls"]))
        return "\n".join(entries) or "(none yet)"

    def _examples(self, task: str) -> tuple[list[str], str]:
        """(names, prompt text) of the in-context examples for this task type."""
        if self.shots == "few":
            name = f"webwise/{example_file_key(task)}_examples"
            return ([f"prompts/{name}.txt"], load_prompt(name)) if prompt_exists(name) else ([], "")
        if self.shots == "auto":
            chosen = self._auto_examples().get(task, [])
            return [e["id"] for e in chosen], "\n\n".join(
                render_example(number, "a task you solved before", e["task"], e["programs"])
                for number, e in enumerate(chosen, 1))
        return [], ""

    def _auto_examples(self) -> dict:
        if self._auto is None:
            try:
                self._auto = json.loads(Path(self.examples_file).read_text())["examples"]
            except FileNotFoundError:
                raise RuntimeError(f"{self.examples_file} is missing: `python -m agent run --shots auto` makes "
                                   "it from zero-shot trials before the episodes") from None
        return self._auto


def example_file_key(task: str) -> str:
    """TASK_FIND_FLIGHT -> find_flight: the name of the task's few-shot example file."""
    return task.lower().removeprefix("task_")


def render_example(number: int, title: str, task: str, programs: list[dict]) -> str:
    """An example as the prompt shows it: the task, then each filtered page and the program run on it."""
    lines = [f"Example {number} ({title})", f"TASK: {task}"]
    for step in programs:
        lines += ["FILTERED PAGE:", step["page"], "PROGRAM:", step["program"]]
    return "\n".join(lines)


def _target_id(action: str, observation: Observation) -> int | None:
    """The id of the element an action names on this page (to mark it once the action worked)."""
    try:
        parsed = parse_action(action)
        return resolve(parsed, observation.elements)["id"] if parsed.name in ("click", "type", "clear") else None
    except ActionError:
        return None
