"""An LLM policy to copy: it asks any OpenAI-compatible chat model for the next action, given the
task, its earlier actions and the page. Run it (the model's key in OPENAI_API_KEY):

    python -m agent run --method examples.llm_policy:LLMPolicy --model gpt-4o-mini \
        --tasks TASK_FIND_BOOKING --episodes 3

--model, --base-url and --temperature reach the constructor by name (any run option it names does);
the prompt is llm_prompt.txt beside this file. The contract is agent/episode/policy.py.
"""
from __future__ import annotations

import re
from pathlib import Path

from openai import OpenAI

from agent.episode.policy import Policy

PROMPT = (Path(__file__).parent / "llm_prompt.txt").read_text()
ACTION_LINE = re.compile(r"^\s*ACTION:\s*(.+)$", re.MULTILINE)
REASON_LINE = re.compile(r"^\s*REASON:\s*(.+)$", re.MULTILINE)


class LLMPolicy(Policy):
    name = "my-llm"
    uses_model = True  # --model and --temperature are recorded with its runs (a resume with others is refused)

    def __init__(self, model: str | None = None, base_url: str | None = None, temperature: float = 0.0):
        if not model:
            raise ValueError("give the chat model with --model (or OPENAI_MODEL)")
        self.client = OpenAI(base_url=base_url)  # the key comes from OPENAI_API_KEY
        self.model, self.temperature = model, temperature
        self.tokens = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0}

    def reset(self, scenario: dict) -> None:
        self.system = PROMPT.format(actions=scenario["actions"])
        lines = "\n".join(f"{line['role']}: {line['text']}" for line in scenario["conversation"])
        self.task = f"TASK: {scenario['instruction']}\nCONVERSATION:\n{lines}"
        self.history: list[str] = []
        self.tokens = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0}

    def act(self, observation) -> tuple[str, str]:
        done = "\n".join(self.history) or "(none)"
        user = f"{self.task}\n\nYOUR ACTIONS SO FAR:\n{done}\n\nCURRENT PAGE:\n{observation.text}"
        answer = self.client.chat.completions.create(
            model=self.model, temperature=self.temperature,
            messages=[{"role": "system", "content": self.system}, {"role": "user", "content": user}])
        self._count(answer.usage)
        text = answer.choices[0].message.content or ""
        action, reason = ACTION_LINE.search(text), REASON_LINE.search(text)
        if not action:
            return "The model gave no ACTION line.", "STOP [no action]"
        self.history.append(action.group(1).strip())
        return (reason.group(1).strip() if reason else ""), action.group(1).strip()

    def usage(self) -> dict:
        return dict(self.tokens)

    def _count(self, usage) -> None:
        self.tokens["calls"] += 1
        self.tokens["prompt_tokens"] += getattr(usage, "prompt_tokens", 0) or 0
        self.tokens["completion_tokens"] += getattr(usage, "completion_tokens", 0) or 0
