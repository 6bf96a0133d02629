"""Synapse's two prompts and its trajectory format, shared by the policy and the memory builder.

State abstraction: the raw page becomes a short, task-relevant state (a first line saying where the
agent is, then only the element lines the task needs), by a prompt with (page, state) examples cut
from real CRM pages (prompts/synapse/abstraction_examples.txt), zero-shot or few-shot alike.

Trajectory-as-exemplar: exemplars and the current episode are written the same way,

    TASK: <instruction>
    STATE:
    <abstracted state>
    ACTIONS:
    <action>
    <action>
    STATE:
    ERROR: <why the last action failed>   (only after a failure)
    ...

and the model continues the current one after its last `ACTIONS:`.
"""
from __future__ import annotations

from functools import lru_cache

from .prompting import NO_EXAMPLES, load_prompt, render


@lru_cache(maxsize=1)
def abstraction_system() -> str:
    return render("synapse/abstraction", examples=load_prompt("synapse/abstraction_examples"))


def abstraction_input(task: str, page: str) -> str:
    return render("synapse/abstraction_input", task=task, page=page)


def abstract_state(calls, task: str, page: str) -> tuple[str, str | None]:
    """One abstraction call (`calls` is a policies.model.ModelCalls): the state, and a problem when
    the reply held none."""
    reply = calls.ask(abstraction_system(), abstraction_input(task, page), "ABSTRACTION").text
    return read_state(reply, page)


def read_state(reply: str, page: str) -> tuple[str, str | None]:
    """The abstracted state from the model's reply, and a problem when it gave none (the raw page
    stands in for the state then, so the episode goes on with what the page shows)."""
    lines = [line.rstrip() for line in reply.strip().strip("`").splitlines()]
    if lines and lines[0].strip().upper().rstrip(":") == "STATE":
        lines = lines[1:]
    state = "\n".join(lines).strip()
    if not state:
        return page, "the abstraction reply was empty; the raw page was used as the state"
    return state, None


def act_system(exemplars: str = NO_EXAMPLES) -> str:
    return render("synapse/act", exemplars=exemplars)


def act_input(trajectory: str) -> str:
    return render("synapse/act_input", trajectory=trajectory)


def render_trajectory(task: str, turns) -> str:
    """Task, then each turn's STATE (with the ERROR that preceded it, if any) and ACTIONS. A turn is
    anything with `state` and `actions` (and optionally `error`): memory turns and the policy's."""
    lines = [f"TASK: {task}"]
    for turn in turns:
        lines.append("STATE:")
        error = _field(turn, "error")
        if error:
            lines.append(f"ERROR: {error}")
        lines += [_field(turn, "state"), "ACTIONS:", *_field(turn, "actions")]
    return "\n".join(lines)


def exemplar_block(exemplars) -> str:
    """The retrieved exemplars as the act prompt shows them, or the no-examples note (zero-shot)."""
    if not exemplars:
        return NO_EXAMPLES
    return "\n\n".join(f"Exemplar {number} ({exemplar.task_type})\n{render_trajectory(exemplar.task, exemplar.turns)}"
                       for number, exemplar in enumerate(exemplars, 1))


def _field(turn, name: str):
    return turn.get(name) if isinstance(turn, dict) else getattr(turn, name, None)
