"""The one reader of model replies: `REASON: ...` then `ACTION: ...` (or `PLAN:` with one call
per line for the HeaP planner), Synapse's action lines and the code block of a WebWISE program.
Replies are read leniently; what is missing is reported, not raised."""
from __future__ import annotations

import re
from dataclasses import dataclass

_FIELD = re.compile(r"^\s*[*#]*\s*(REASON|ACTION|PLAN)\s*[*]*\s*:\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Reply:
    reason: str
    action: str  # the first line after ACTION:, "" when the reply has none
    plan: tuple[str, ...] = ()  # lines after PLAN:
    has_plan: bool = False

    @property
    def problem(self) -> str | None:
        """Why the reply cannot be used as an action, or None."""
        return None if self.action else "the reply has no ACTION line"


def parse_reply(text: str) -> Reply:
    sections: dict[str, list[str]] = {}
    current = None
    for line in (text or "").splitlines():
        match = _FIELD.match(line)
        if match:
            current = match.group(1).upper()
            sections.setdefault(current, [])
            line = match.group(2)
        if current is not None and line.strip():
            sections[current].append(line.strip().strip("`").strip())
    action = next(iter(sections.get("ACTION", [])), "")
    plan = tuple(line for line in sections.get("PLAN", []) if line.strip("-* ").strip())
    reason = " ".join(sections.get("REASON", [])) or ("" if sections else (text or "").strip())
    return Reply(reason, action, tuple(_unbullet(line) for line in plan), "PLAN" in sections)


def _unbullet(line: str) -> str:
    return re.sub(r"^\s*(?:[-*]|\d+[.)])\s*", "", line).strip()


def split_call(action: str) -> tuple[str, str]:
    """`NAME [argument]` or `NAME argument` -> (NAME upper-cased, argument)."""
    word, _, rest = action.strip().partition(" ")
    rest = rest.strip()
    if rest.startswith("[") and rest.endswith("]"):
        rest = rest[1:-1].strip()
    return word.upper(), rest


_FENCE = re.compile(r"```[\w+-]*[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)
_TRAJECTORY_HEAD = re.compile(r"^\s*[*#]*\s*(TASK|STATE|ERROR|ACTIONS)\s*[*]*\s*:\s*(.*)$", re.IGNORECASE)


def fenced_code(text: str) -> str:
    """The first ```-fenced block of a reply, or the whole reply when it has none."""
    found = _FENCE.search(text or "")
    return found.group(1) if found else (text or "")


def action_lines(text: str) -> list[str]:
    """Synapse's reply: the action lines that continue the trajectory after `ACTIONS:`, one per
    line, up to where the model starts imagining the next STATE (or a new TASK)."""
    actions, reading = [], True
    for line in fenced_code(text).splitlines():
        head = _TRAJECTORY_HEAD.match(line)
        if head and head.group(1).upper() != "ACTIONS":
            if actions:
                break
            reading = False  # an echo of the state before any action: skip to its ACTIONS
            continue
        if head:
            reading, line = True, head.group(2)
        line = _unbullet(line).strip("`").strip()
        if reading and line:
            actions.append(line)
    return actions
