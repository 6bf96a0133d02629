"""A customer role-played by a language model (any OpenAI-compatible endpoint), from the same hidden
facts and request as the rule-based one: `run.py --customer-model MODEL --customer-base-url URL`
(or CRM_CUSTOMER_MODEL, CRM_CUSTOMER_BASE_URL; the key from OPENAI_API_KEY). Its lines are stored
with the model's name (`speaker`), so a call says which customer answered it. Temperature 0, but
an endpoint may still answer the same transcript differently: the rule-based customer is the
deterministic default."""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from string import Template

from crm_app.services.errors import DomainError

from .facts import BY_NAME
from .simulator import AGENT, RULES

PROMPT = Path(__file__).resolve().parent / "prompts" / "customer.txt"
CUSTOMER = "customer"  # app.extensions key: the customer the server runs
MAX_REPLY = 1000  # characters kept of a reply
TIMEOUT_SECONDS = 60


class CustomerUnavailable(DomainError):
    """The customer's model did not answer."""

    status = 502


@dataclass(frozen=True)
class LLMCustomer:
    model: str
    base_url: str | None = None
    api_key: str | None = None
    manner: str = ""  # how the caller speaks: its customer variant's (scenarios/customer/variants/)
    variant: object = None  # that variant, whose end-of-call mark (its ends_call) a reply may end with

    @property
    def speaker(self) -> str:
        return f"llm:{self.model}"

    def speaking(self, variant, booked_on: str | None) -> LLMCustomer:
        """This customer as a scenario's caller: told to speak as customer variant `variant`."""
        return replace(self, manner=variant.manner, variant=variant)

    def ends_call(self, text: str) -> bool:
        """Whether the reply `text` hangs up, by the same mark as the rule-based caller of its variant
        (the impatient one is told to say it when asked for a fact a third time)."""
        return self.variant is not None and self.variant.ends_call(text)

    def reply(self, facts: dict, transcript: list[dict]) -> str:
        """The model's answer, as the customer, to the agent's last line of `transcript`."""
        from openai import OpenAI, OpenAIError  # only a server with a customer model needs the client

        client = OpenAI(base_url=self.base_url or None, api_key=self.api_key or os.environ.get("OPENAI_API_KEY") or "none",
                        timeout=TIMEOUT_SECONDS, max_retries=2)
        try:
            completion = client.chat.completions.create(model=self.model, temperature=0,
                                                        messages=[{"role": "system",
                                                                   "content": persona(facts, self.manner)},
                                                                  *_turns(transcript)])
        except OpenAIError as error:
            raise CustomerUnavailable(f"The customer's model {self.model} did not answer: "
                                      f"{str(error).splitlines()[0][:200]}") from None
        text = (completion.choices[0].message.content or "").strip()
        return text[:MAX_REPLY] or "I'm sorry, I don't know that."


def persona(facts: dict, manner: str = "") -> str:
    """The system prompt: the request, the facts as the customer says them, any correction, and
    how the caller speaks (`manner`: a customer variant's; the plain caller's prompt has none)."""
    known = {name: value for name, value in facts.items() if name in BY_NAME and name not in ("request", "consent")}
    lines = "\n".join(f"- {name.replace('_', ' ')}: {BY_NAME[name].say(value)}" for name, value in known.items())
    corrections = facts.get("corrections") or {}
    fixes = "".join(f"\nYou first give your {name.replace('_', ' ')} wrongly, as above; when the agent reads it back, "
                    f"correct it: {BY_NAME[name].say(value)}\n" for name, value in corrections.items())
    prompt = Template(PROMPT.read_text()).safe_substitute(request=facts.get("request", ""), facts=lines,
                                                          corrections=fixes)
    return f"{prompt.rstrip()}\n- How you speak: {manner}\n" if manner else prompt


def _turns(transcript: list[dict]) -> list[dict]:
    """The call as chat turns: the agent is the user, the customer the assistant."""
    return [{"role": "user" if line["role"] == AGENT else "assistant", "content": line["text"]} for line in transcript]


def customer_from_config(config: dict):
    """The customer the server's settings ask for: the model's, or the rule-based one."""
    model = config.get("CUSTOMER_MODEL")
    return LLMCustomer(model, config.get("CUSTOMER_BASE_URL") or None) if model else RULES
