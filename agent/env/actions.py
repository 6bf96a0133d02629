"""The action set: what an agent may do, described as data, and the one parser for its text.

Two spellings are accepted, case-insensitively: the HeaP style (`CLICK 6`, `TYPE 6 "JFK"`,
`CLEAR 6`) and the SteP/WebArena style (`click [6]`, `type [6] [JFK]`, `stop [answer]`).
An element is named by its integer id from the observation or by its visible label
(`CLICK Search flights`, `TYPE From "JFK"`).

An agent on a call speaks to the customer with `SAY "text"` (a conversation action, answered by the
scenario's simulated customer, not done on the page), unless the call reaches it through the page
(the `page` channel): then it has no conversation actions and uses the page's Call panel.

Agents that look at screenshots act by coordinates instead, in CSS pixels from the viewport's
top-left corner (the units of the observation's element boxes): `click_at 640 312`,
`type_text "JFK"` (into the focused field), `press Enter`, `scroll 0 400`, `move_to 640 312`.
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

# Actions by position, for agents that see the page as an image; the page records what they do
# exactly as it records element actions (it only sees real mouse and keyboard events either way).
COORDINATE_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "click_at",
        ("CLICK_AT <x> <y>", "click_at [<x>] [<y>]"),
        "Click at this point of the screenshot (pixels from its top-left corner).",
    ),
    ActionSpec(
        "type_text",
        ('TYPE_TEXT "<text>"', "type_text [<text>]"),
        "Type the text with the keyboard into the field that has the focus (click it first); "
        "the field keeps the focus until you press Tab or Enter or click elsewhere.",
    ),
    ActionSpec(
        "press",
        ("PRESS <key>", "press [<key>]"),
        "Press a key: Enter, Tab, Escape, Backspace, Delete, ArrowUp, ArrowDown, ArrowLeft, "
        "ArrowRight, Home, End, PageUp, PageDown, Space, or a combination such as Control+a "
        "(select all) or Shift+Tab.",
    ),
    ActionSpec(
        "scroll",
        ("SCROLL <dx> <dy>", "scroll [<dx>] [<dy>]"),
        "Turn the mouse wheel where the mouse is: dy > 0 scrolls down, dx > 0 right (pixels).",
    ),
    ActionSpec("move_to", ("MOVE_TO <x> <y>", "move_to [<x>] [<y>]"), "Move the mouse to this point."),
)

# Talking to the customer on the line (scenarios/customer/): not a page action; the customer's reply
# opens the next observation.
CONVERSATION_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("say", ('SAY "<text>"', "say [<text>]"),
               "Say the text to the customer on the line; their reply is the next observation's first line "
               "(CUSTOMER: ...)."),
    ActionSpec("transfer", ('TRANSFER "<summary>"', "transfer [<summary>]"),
               "Transfer the call to a supervisor, with a short summary of what the customer needs; the call "
               "and the episode end. Only where the policy says a supervisor must decide, or the customer "
               "asks for one."),
)

# How an agent on a call speaks to the customer: `say`, with the conversation actions above (or the
# API's tools); `page`, on the page alone (its Call panel and Transfer to supervisor screen).
SAY_CHANNEL, PAGE_CHANNEL = "say", "page"
CHANNELS = (SAY_CHANNEL, PAGE_CHANNEL)

ACTION_NAMES = {spec.name for spec in ACTION_SET + COORDINATE_ACTIONS + CONVERSATION_ACTIONS}
CONVERSATION_NAMES = {spec.name for spec in CONVERSATION_ACTIONS}
POINT_ACTIONS = {"click_at", "move_to", "scroll"}  # the ones that take two numbers
TEXT_ACTIONS = ("type_text", "say", "transfer")  # the ones that take one text
ALIASES = {"send_msg_to_user": "say", "message_customer": "say", "transfer_to_supervisor": "transfer", "done": "stop", "fill_text": "type", "choose_date": "type", "mouse_click": "click_at",
           "hover_at": "move_to", "keyboard_type": "type_text", "key": "press", "key_press": "press"}

# Keys `press` accepts, by any case-insensitive spelling, with their Playwright names.
KEYS = {name.lower(): name for name in (
    "Enter", "Tab", "Escape", "Backspace", "Delete", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
    "Home", "End", "PageUp", "PageDown", "Space")}
KEYS.update({"return": "Enter", "esc": "Escape", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft",
             "right": "ArrowRight", "del": "Delete", "pgup": "PageUp", "pgdn": "PageDown"})
MODIFIERS = {"shift": "Shift", "control": "Control", "ctrl": "Control", "alt": "Alt", "meta": "Meta",
             "cmd": "Meta"}


class ActionError(ValueError):
    """An action that cannot be parsed or carried out; the message is shown to the agent."""


@dataclass(frozen=True)
class Action:
    name: str  # click, type, clear, scroll, stop; click_at, type_text, press, scroll, move_to; say, transfer
    target: int | str | None = None  # element id, or a visible label
    value: str | None = None  # text for type, type_text, say and transfer, answer for stop, key for press, scroll direction
    press_enter: bool = False
    point: tuple[float, float] | None = None  # x, y for click_at and move_to; dx, dy for scroll

    def __str__(self) -> str:
        target = "" if self.target is None else f" {self.target}"
        if self.name in TEXT_ACTIONS or self.name == "type":
            return f"{self.name.upper()}{target} {_typed(self.value, self.target)}"
        if self.name == "stop":
            return f"STOP [{self.value}]" if self.value else "STOP"
        if self.point is not None:
            return f"{self.name.upper()} {self.point[0]:g} {self.point[1]:g}"
        if self.name == "press":
            return f"PRESS {self.value}"
        if self.name == "scroll":
            return f"SCROLL {self.value}"
        return f"{self.name.upper()}{target}"


def describe_actions(coordinates: bool = False, conversation: bool = False) -> str:
    """The action set as prompt text: one line per spelling group with its description; with
    `coordinates`, the actions by position follow the element actions; with `conversation`, SAY and TRANSFER."""
    specs = ACTION_SET + (COORDINATE_ACTIONS if coordinates else ()) + (CONVERSATION_ACTIONS if conversation else ())
    return "\n".join(f"- {' or '.join(spec.usage)}: {spec.description}" for spec in specs)


_BRACKETS = re.compile(r"\[([^\]]*)\]")
# An element echoed from the observation, e.g. `CLICK <button id=13>Search flights</button>`.
_ECHOED_ID = re.compile(r"^<\w+ id=(\d+)\b")


def parse_action(text: str, conversation: bool = True) -> Action:
    """Parse one action; raise ActionError with a readable message when it is not one. Without
    `conversation` (the page channel) SAY and TRANSFER are unknown actions."""
    line = _clean(text)
    if not line:
        raise ActionError("Empty action. " + _HINT)
    word, _, rest = line.partition(" ")
    name = ALIASES.get(word.lower(), word.lower())
    if name not in ACTION_NAMES:
        raise ActionError(f"Unknown action {word!r}. " + _HINT)
    if not conversation and name in CONVERSATION_NAMES:
        raise ActionError(f"Unknown action {word!r}: the customer is on the page's call panel here. " + _PANEL_HINT)
    rest = rest.strip()
    if name == "stop":
        return Action("stop", value=_stop_answer(rest))
    if name == "scroll" and not re.match(rf"\[?\s*{_NUMBER}", rest):  # SCROLL down|up; SCROLL <dx> <dy> below
        return Action("scroll", value=_direction(rest, line))
    if name in POINT_ACTIONS:
        return Action(name, point=_point(name, rest, line))
    if name in TEXT_ACTIONS:
        return Action(name, value=_text_argument(name, rest, line))
    if name == "press":
        return Action("press", value=_key(rest, line))
    if rest.startswith("["):
        return _parse_bracketed(name, rest, line)
    return _parse_plain(name, rest, line)


_HINT = ('Use CLICK <id>, TYPE <id> "text", CLEAR <id>, SCROLL down|up or STOP [answer]; by position: '
         'CLICK_AT <x> <y>, TYPE_TEXT "text", PRESS <key>, SCROLL <dx> <dy>, MOVE_TO <x> <y>.')
_PANEL_HINT = ("Speak to them by typing into its message box and pressing its Send button; hand the call to a "
               "supervisor on the Transfer to supervisor screen; end the call with End call.")
SCROLL_DIRECTIONS = ("down", "up")


def _clean(text: str) -> str:
    line = (text or "").strip().strip("`").strip()
    line = re.sub(r"^(?:action|next action)\s*:\s*", "", line, flags=re.I)
    line = line.splitlines()[0].strip() if line else ""
    # click_at(640, 312) and press("Enter"): the call style of computer-use models
    call = re.fullmatch(r"(\w+)\((.*)\)", line)
    return f"{call.group(1)} {call.group(2)}" if call else line


_NUMBER = r"-?\d+(?:\.\d+)?"


def _point(name: str, rest: str, line: str) -> tuple[float, float]:
    numbers = re.fullmatch(rf"\[?\s*({_NUMBER})\s*\]?\s*[, ]\s*\[?\s*({_NUMBER})\s*\]?", rest)
    if not numbers:
        what = "<dx> <dy>" if name == "scroll" else "<x> <y>"
        raise ActionError(f"Cannot parse {line!r}: expected {name.upper()} {what} (two numbers).")
    return float(numbers.group(1)), float(numbers.group(2))


def _text_argument(name: str, rest: str, line: str) -> str:
    """The one text argument of TYPE_TEXT, SAY and TRANSFER, quoted or in brackets."""
    match = _BRACKETS.fullmatch(rest)
    text = _unquote(match.group(1) if match else rest)
    if not text or (name != "type_text" and not text.strip()):  # TYPE_TEXT may type spaces
        raise ActionError(f'Cannot parse {line!r}: expected {name.upper()} "text".')
    return text


def _key(rest: str, line: str) -> str:
    match = _BRACKETS.fullmatch(rest)
    spec = _unquote((match.group(1) if match else rest).strip())
    *modifiers, key = spec.split("+") if spec not in ("+", "") else [spec]
    named = KEYS.get(key.lower()) or (key.lower() if len(key) == 1 and key.isalnum() else None)
    wrong = [m for m in modifiers if m.lower() not in MODIFIERS]
    if not named or wrong:
        raise ActionError(f"Cannot parse {line!r}: {spec!r} is not a key; use one of "
                          f"{', '.join(sorted(set(KEYS.values())))}, a letter or digit, with Shift+, Control+, Alt+ or Meta+.")
    return "+".join([*(MODIFIERS[m.lower()] for m in modifiers), named])


def _stop_answer(rest: str) -> str:
    match = _BRACKETS.fullmatch(rest)
    answer = match.group(1) if match else rest
    return _unquote(answer.strip())


def _direction(rest: str, line: str) -> str:
    direction = _unquote(rest.strip().strip("[]").strip()).lower()
    if direction not in SCROLL_DIRECTIONS:
        raise ActionError(f"Cannot parse {line!r}: SCROLL takes down or up (or <dx> <dy> in pixels).")
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


def _typed(text: str, target) -> str:
    """Typed text in a form the parser reads back: in the quotes it does not contain. Text holding
    both kinds goes bare after a numeric id (the parser takes the rest of the line as the text) and
    in double quotes otherwise (TYPE_TEXT strips only the outer pair; after a label, or when it
    ends in a quoted word, such text cannot be read back whole)."""
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return text if isinstance(target, int) else f'"{text}"'


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text
