"""What a task package (BrowserGym, CUBE) gives an agent as its task: the scenario's instruction, and
in a call handled through the package's chat the customer's opening line and the chat action to use."""
from __future__ import annotations


def task_text(scenario: dict, chat_action: str | None = None) -> str:
    """The instruction; with `chat_action` (the call is in the chat) the opening line and that action."""
    goal = scenario["instruction"]
    if not chat_action:
        return goal
    opening = " ".join(line["text"] for line in scenario.get("conversation", []))
    return f"{goal}\nThe customer says: {opening}\nSpeak to the customer with {chat_action}."
