"""The element-list observation: the page as one line per salient element, in reading order.

    <link id=3>Help</link>
    <input id=6 text From value="JFK"/>
    <select id=9 Title value="Mr" options="Mr|Mrs|Ms|Miss|Dr"/>
    <radio id=4 Return checked/>
    <button id=13>Search flights</button>
    <text id=19>7:01pm JFK 10:13pm FLL CR1234 $172.55</text>

The page side (page_agent.js) walks the DOM once per observation; this module formats its
result and reads such lines back (for the oracle and for naming elements by label). Every element
of `Observation.elements` also has its `box` ({x, y, width, height} in CSS pixels from the
viewport's top-left corner); the other observation modes (agent/env/modes/) fill `Observation.modes`.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError

PAGE_AGENT_JS = (Path(__file__).with_name("page_agent.js")).read_text()
_CALL = "([method, args]) => (window.__agent || " + PAGE_AGENT_JS + ")[method](...args)"


def calling(agent: str, guard: str = "") -> str:
    """A page function calling `agent`'s method, its result back as one JSON string: Playwright's
    Python client checks a returned object against its protocol value by value, which cost more CPU
    than the rest of a step's driver side (benchmarks/browser_step_cost.py)."""
    return ("async ([method, args]) => { " + guard + "const result = await " + agent + "[method](...args); "
            "return result === undefined ? 'null' : JSON.stringify(result); }")


_CALL_JSON = calling("(window.__agent || " + PAGE_AGENT_JS + ")")
# Sending (and compiling) the whole helper costs a few milliseconds per call: it is sent only to
# a document that does not have it yet (null back).
_CALL_INSTALLED = calling("window.__agent", guard="if (!window.__agent) return null; ")

CLOSED_KINDS = {"link", "button", "text", "option"}  # written <kind id=N>name</kind>


def call_page(page, method: str, *args):
    """Call a page_agent.js function, installing it first when the page does not have it."""
    text = page.evaluate(_CALL_INSTALLED, [method, list(args)])
    if text is None:
        text = page.evaluate(_CALL_JSON, [method, list(args)])
    return json.loads(text)


def page_node(page, method: str, *args):
    """Like call_page, for a function that returns an element: its ElementHandle, or None."""
    return page.evaluate_handle(_CALL, [method, list(args)]).as_element()


@dataclass
class Observation:
    text: str
    elements: list[dict] = field(default_factory=list)
    url: str = ""
    error: str | None = None
    settle_ms: float = 0.0  # how long the page took to settle before it was read (in the page)
    observe_ms: float = 0.0  # how long reading it took (in the page)
    page_events: tuple[str, int] | None = None  # (the CRM page's id, the events the server took from it)
    ready: bool = True
    viewport: dict = field(default_factory=dict)  # {width, height} in CSS pixels
    modes: dict = field(default_factory=dict)  # observation mode name -> its text or PNG bytes
    customer: str | None = None  # the customer's reply to the agent's SAY, the text's first line
    call_state: str | None = None  # the page's call panel: open, ended, transferred; None: the page has none
    call_lines: int | None = None  # the rows the scenario's call has stored, as the page last heard; None: unknown

    @property
    def call_ended(self) -> bool:
        """Whether the page's call panel says its call has ended (End call, or a transfer)."""
        return call_has_ended(self.call_state)

    def with_customer(self, reply: str) -> Observation:
        """This observation opened by the customer's reply (`CUSTOMER: ...`)."""
        self.customer, self.text = reply, "\n".join([f"CUSTOMER: {reply}", self.text])
        return self

    @property
    def tokens(self) -> int:
        return count_tokens(self.text)

    @property
    def boxes(self) -> dict[int, dict]:
        """Every element's box by id."""
        return {element["id"]: element["box"] for element in self.elements if "box" in element}


def call_has_ended(call_state: str | None) -> bool:
    """A call panel's state (data-call-state: open, ended, transferred; None without a panel) says the call ended."""
    return call_state not in (None, "open")


def settle_page(page) -> None:
    """Wait until every event the page recorded has reached the CRM (a page elsewhere has none)."""
    try:
        call_page(page, "settle")
    except PlaywrightError:  # the page is navigating or closed: nothing is pending on it any more
        pass


def page_call_state(page) -> str | None:
    """The page's call panel: open, ended or transferred (None: no panel, or a page elsewhere)."""
    try:
        return page.evaluate("() => document.querySelector('[data-call]')?.dataset.callState ?? null")
    except PlaywrightError:
        return None


def count_tokens(text: str) -> int:
    """Offline token estimate: characters / 4, rounded up (the usual rule of thumb for BPE
    tokenizers on English text; no tokenizer files are needed)."""
    return math.ceil(len(text) / 4)


@dataclass(frozen=True)
class Reading:
    """How the page is read into an observation: what page_agent.js's observe() is asked for
    (`page_options`), how many elements are kept at most, and whether a failed action's error
    becomes the text's first line. The default is this project's element list; the papers' is
    paper_observation.PAPER."""
    page_options: dict | None = None
    max_rows: int | None = None
    error_line: bool = True


ELEMENT_LIST = Reading()


def observe(page, error: str | None = None, settle: bool = False, reading: Reading = ELEMENT_LIST) -> Observation:
    """The page as an Observation; with `settle`, first wait (in the same page call) until the
    page is idle. `settle_ms` is how long that wait took in the page."""
    options = [reading.page_options] if reading.page_options else []
    return observation_from(call_page(page, "settleAndObserve" if settle else "observe", *options), error, reading)


def observation_from(data: dict, error: str | None, reading: Reading) -> Observation:
    """The Observation of what page_agent.js's observe() (or settleAndObserve/act) returned."""
    items = data["items"][:reading.max_rows]
    obs = Observation(format_elements(items, error if reading.error_line else None), items, data["url"], error)
    obs.settle_ms = round(data.get("settleMs", 0.0), 2)
    obs.observe_ms = round(data.get("observeMs", 0.0), 2)
    obs.page_events = (data["page"], data["events"]) if data.get("events") is not None else None
    obs.ready = data.get("ready", True)
    obs.viewport = data.get("viewport", {})
    obs.call_state = data.get("callState")
    obs.call_lines = data.get("lines")
    return obs


def without_error_line(text: str) -> str:
    """An observation's page lines without the `ERROR:` line put on top after a failed action."""
    first, _, rest = text.partition("\n")
    return rest if first.startswith("ERROR: ") else text


def format_elements(items: list[dict], error: str | None = None) -> str:
    lines = [f"ERROR: {error}"] if error else []
    lines += [format_element(item) for item in items]
    return "\n".join(lines)


def format_element(item: dict) -> str:
    kind, name = item["kind"], item.get("name", "")
    flags = [flag for flag in ("checked", "disabled", "invalid") if item.get(flag)]
    if kind in CLOSED_KINDS:
        head = " ".join([f"{kind} id={item['id']}", *flags])
        return f"<{head}>{name}</{kind}>"
    parts = [f"{kind} id={item['id']}"]
    if kind == "input":
        parts.append(item.get("type", "text"))
    if name:
        parts.append(name)
    if item.get("value"):
        parts.append(f'value="{quote_value(item["value"])}"')
    if item.get("options"):
        parts.append(f'options="{quote_value("|".join(item["options"]))}"')
    if item.get("hint"):
        parts.append(f'hint="{quote_value(item["hint"])}"')
    return "<" + " ".join(parts + flags) + "/>"


def quote_value(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


_CLOSED = re.compile(r"^<(\w+) id=(\d+)((?: \w+)*)>(.*)</\1>$")
_OPEN = re.compile(
    r'^<(\w+) id=(\d+)(?: (?!(?:checked|disabled|invalid)(?: |/>))(\w+(?:-\w+)?)(?= |/>))?(.*?)'
    r'(?: value="((?:[^"\\]|\\.)*)")?(?: options="((?:[^"\\]|\\.)*)")?(?: hint="(?:[^"\\]|\\.)*")?'
    r"((?: (?:checked|disabled|invalid))*)/>$"
)


def parse_line(line: str) -> dict | None:
    """One observation line back to {id, kind, name, value, checked, ...}; None for other lines."""
    match = _CLOSED.match(line)
    if match:
        kind, ident, flags, name = match.groups()
        return {"id": int(ident), "kind": kind, "name": name, **{f: True for f in flags.split()}}
    match = _OPEN.match(line)
    if not match:
        return None
    kind, ident, word, name, value, options, flags = match.groups()
    if kind != "input" and word:  # only inputs carry a type word; elsewhere it starts the name
        name = f"{word}{name}"
        word = None
    item = {"id": int(ident), "kind": kind, "name": name.strip(), "value": _unquote(value or "")}
    if word:
        item["type"] = word
    if options:
        item["options"] = _unquote(options).split("|")
    item.update({flag: True for flag in flags.split()})
    return item


def parse_observation(text: str) -> list[dict]:
    return [item for item in map(parse_line, text.splitlines()) if item]


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)
