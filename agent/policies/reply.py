"""The one reader of model replies: `REASON: ...` then `ACTION: ...` (or `PLAN:` with one call
per line for the HeaP planner). Replies are read leniently; what is missing is reported, not raised."""
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
