"""The action set: what an agent may do, described as data, and the one parser for its text.

Two spellings are accepted, case-insensitively: the HeaP style (`CLICK 6`, `TYPE 6 "JFK"`,
`CLEAR 6`) and the SteP/WebArena style (`click [6]`, `type [6] [JFK]`, `stop [answer]`).
An element is named by its integer id from the observation or by its visible label
(`CLICK Search flights`, `TYPE From "JFK"`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class ActionSpec:
    name: str
    usage: tuple[str, ...]  # the accepted spellings, for prompts
    description: str


ACTION_SET: tuple[ActionSpec, ...] = (
    ActionSpec(
        "click",
        ("CLICK <id>", "click [<id>]"),
        "Click the element with this id (a button, link, radio, checkbox, list option or text).",
    ),
    ActionSpec(
        "type",
        ('TYPE <id> "<text>"', "type [<id>] [<text>]"),
        "Replace the content of a text field with the text and leave the field, as a person "
        "does, so the page takes the value; for a select, choose the option with this text. "
        "When typing opens a list of suggestions the field stays focused so one can be clicked.",
    ),
    ActionSpec("clear", ("CLEAR <id>", "clear [<id>]"), "Empty a text field and leave it."),
    ActionSpec(
        "scroll",
        ("SCROLL down", "scroll [up]"),
        "Scroll the page down or up by most of a screen, to bring elements that are out of view into view.",
    ),
    ActionSpec(
        "stop",
        ("STOP [<answer>]", "stop [<answer>]"),
        "End the task, with an answer when the task asks for one.",
    ),
)

ACTION_NAMES = {spec.name for spec in ACTION_SET}
ALIASES = {"done": "stop", "fill_text": "type", "choose_date": "type"}


class ActionError(ValueError):
    """An action that cannot be parsed or carried out; the message is shown to the agent."""


@dataclass(frozen=True)
class Action:
    name: str  # click, type, clear, scroll, stop
    target: int | str | None = None  # element id, or a visible label
    value: str | None = None  # text for type, answer for stop, direction for scroll
    press_enter: bool = False

    def __str__(self) -> str:
        target = "" if self.target is None else f" {self.target}"
        if self.name == "type":
            return f'TYPE{target} "{self.value}"'
        if self.name == "stop":
            return f"STOP [{self.value}]" if self.value else "STOP"
        if self.name == "scroll":
            return f"SCROLL {self.value}"
        return f"{self.name.upper()}{target}"


def describe_actions() -> str:
    """The action set as prompt text: one line per spelling group with its description."""
    return "\n".join(f"- {' or '.join(spec.usage)}: {spec.description}" for spec in ACTION_SET)


_BRACKETS = re.compile(r"\[([^\]]*)\]")
# An element echoed from the observation, e.g. `CLICK <button id=13>Search flights</button>`.
_ECHOED_ID = re.compile(r"^<\w+ id=(\d+)\b")


def parse_action(text: str) -> Action:
    """Parse one action; raise ActionError with a readable message when it is not one."""
    line = _clean(text)
    if not line:
        raise ActionError("Empty action. " + _HINT)
    word, _, rest = line.partition(" ")
    name = ALIASES.get(word.lower(), word.lower())
    if name not in ACTION_NAMES:
        raise ActionError(f"Unknown action {word!r}. " + _HINT)
    rest = rest.strip()
    if name == "stop":
        return Action("stop", value=_stop_answer(rest))
    if name == "scroll":
        return Action("scroll", value=_direction(rest, line))
    if rest.startswith("["):
        return _parse_bracketed(name, rest, line)
    return _parse_plain(name, rest, line)


_HINT = 'Use CLICK <id>, TYPE <id> "text", CLEAR <id>, SCROLL down|up or STOP [answer].'
SCROLL_DIRECTIONS = ("down", "up")


def _clean(text: str) -> str:
    line = (text or "").strip().strip("`").strip()
    line = re.sub(r"^(?:action|next action)\s*:\s*", "", line, flags=re.I)
    return line.splitlines()[0].strip() if line else ""


def _stop_answer(rest: str) -> str:
    match = _BRACKETS.fullmatch(rest)
    answer = match.group(1) if match else rest
    return _unquote(answer.strip())


def _direction(rest: str, line: str) -> str:
    direction = _unquote(rest.strip().strip("[]").strip()).lower()
    if direction not in SCROLL_DIRECTIONS:
        raise ActionError(f"Cannot parse {line!r}: SCROLL takes down or up.")
    return direction


def _parse_bracketed(name: str, rest: str, line: str) -> Action:
    parts = _BRACKETS.findall(rest)
    leftover = _BRACKETS.sub("", rest).strip()
    if leftover or not parts:
        raise ActionError(f"Cannot parse {line!r}: expected {name} [id]" + (" [text]" if name == "type" else "") + ".")
    target = _target(parts[0], line)
    if name != "type":
        if len(parts) != 1:
            raise ActionError(f"Cannot parse {line!r}: {name} takes one [id].")
        return Action(name, target)
    if len(parts) not in (2, 3):
        raise ActionError(f"Cannot parse {line!r}: expected type [id] [text] with an optional [1] to press Enter.")
    enter = len(parts) == 3 and parts[2].strip() == "1"
    return Action("type", target, parts[1], press_enter=enter)


def _parse_plain(name: str, rest: str, line: str) -> Action:
    if not rest:
        raise ActionError(f"Cannot parse {line!r}: {name.upper()} needs an element id or label.")
    if name != "type":
        return Action(name, _target(rest, line))
    quoted = re.fullmatch(r"(.+?)\s+(\"[^\"]*\"|'[^']*')", rest)
    if quoted:
        return Action("type", _target(quoted.group(1), line), quoted.group(2)[1:-1])
    id_first = re.fullmatch(r"(\d+)\s+(.+)", rest)
    if id_first:  # TYPE 6 JFK: with a numeric id the rest of the line is the text
        return Action("type", int(id_first.group(1)), id_first.group(2))
    raise ActionError(f'Cannot parse {line!r}: expected TYPE <id> "text" (quote the text).')


def _target(text: str, line: str) -> int | str:
    text = _unquote(text.strip())
    echoed = _ECHOED_ID.match(text)
    if echoed:
        return int(echoed.group(1))
    if re.fullmatch(r"\d+", text):
        return int(text)
    if not text or re.search(r"[<>\[\]]", text):
        raise ActionError(f"Cannot parse {line!r}: {text!r} is not an element id or label.")
    return text


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text
