"""Prompt files under agent/policies/prompts/: loading, filling their $placeholders, and the pieces every
LLM policy shows the model (the task, the conversation, the history of its actions)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from string import Template

from crm_app.services.policy import policy_text
from crm_app.ui_variants.wording import words
from scenarios.suites import has_knowledge_base

from ..env.actions import CONVERSATION_ACTIONS, describe_actions

PROMPTS = Path(__file__).resolve().parent / "prompts"
NO_EXAMPLES = "(no examples)"


@lru_cache(maxsize=None)
def load_prompt(name: str) -> str:
    """The text of agent/policies/prompts/<name>.txt (name may contain a sub-folder, e.g. 'step/cancel')."""
    return (PROMPTS / f"{name}.txt").read_text().strip()


def prompt_exists(name: str) -> bool:
    return (PROMPTS / f"{name}.txt").is_file()


def render(name: str, **fields: str) -> str:
    """The prompt file with $fields substituted; $actions (the element actions), $all_actions (those
    and the actions by position) and $guide (how the CRM works, agent/policies/prompts/crm_guide.txt) are
    always available.
    Unknown $words are left as they are, so observations and examples cannot break a template."""
    return _template(name).safe_substitute({**_shared_fields(), **fields})


@lru_cache(maxsize=None)
def _template(name: str) -> Template:
    return Template(load_prompt(name))


@lru_cache(maxsize=1)
def _shared_fields() -> dict[str, str]:
    """Built once: render() runs for every model call (the state prompt)."""
    return {"actions": describe_actions(), "all_actions": describe_actions(coordinates=True),
            "guide": load_prompt("crm_guide")}


def examples(name: str, shots: str) -> str:
    """Few-shot examples from agent/policies/prompts/<name>.txt, or a note that there are none (zero-shot)."""
    if shots != "few" or not prompt_exists(name):
        return NO_EXAMPLES
    return load_prompt(name)


def task_text(scenario: dict) -> str:
    """The instruction, and on a call what the agent is told of it (`call_text`)."""
    briefing = str(scenario.get("instruction") or "").strip()
    return f"{briefing}\n\n{scenario['call']}" if scenario.get("call") else briefing


# The page's words a prompt of the call on the page names ($call_send: the Call panel's Send button)
CALL_LABELS = ("call", "call-log", "call-message", "call-send", "call-end", "nav-transfer")


def call_text(prompt: str = "call", ui_variant: int = 0, suite: str | None = None) -> str:
    """How to speak to the customer on the line (and hand the call to a supervisor), and the airline's
    policy: the hard suite's, or, in a suite whose policy lives in the knowledge base (the expert
    suite), where to find it (knowledge_base_policy.txt); the page's controls by their labels in UI
    variant `ui_variant`."""
    say = "\n".join(describe_actions(conversation=True).splitlines()[-len(CONVERSATION_ACTIONS):])
    labels = {key.replace("-", "_"): text for key, text in words(ui_variant).items() if key in CALL_LABELS}
    policy = load_prompt("knowledge_base_policy") if has_knowledge_base(suite) else policy_text()
    return render(prompt, say=say, policy=policy, **labels)


def conversation_text(scenario: dict) -> str:
    turns = scenario.get("conversation") or []
    lines = [f"{turn.get('role', '?')}: {turn.get('text', '')}" for turn in turns]
    return "\n".join(lines) or "(no conversation)"


def history_text(history: list[str]) -> str:
    return "\n".join(f"{number}. {entry}" for number, entry in enumerate(history, 1)) or "(none yet)"
