"""The example files under agent/policies/prompts/ and where their pages come from.

Every `<name>_examples.txt` has a sidecar `<name>_examples.provenance.json` that the prompts never
show the model:

    {"format": "elements",
     "examples": [{"task": "TASK_BOOK_FLIGHT", "seed": 4201, "actions": ["CLICK 9", "TYPE 10 \\"SEA\\""]},
                  ...]}

one entry per example, in the file's order: the scenario (task and seed; the format's protocol
gives the suite) and the actions, in the action grammar of agent/env/actions.py, that lead from the
scenario's first page to the example's page. A `webwise` example has no actions: its own programs
are them, and it has one page per program. When the actions book a flight, `"code"` is the
confirmation code the example shows for that booking (the CRM draws a new one on every replay). This module reads the files and writes pages and task
lines back into them; agent/examples/replay.py renders the pages.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..env.observation import without_error_line
from ..policies.prompting import PROMPTS


def whole(text: str) -> str:
    return text


@dataclass(frozen=True)
class Format:
    """How an example file shows a page: the protocol whose scenarios and observation make it, and
    what of the observation's text the policy is shown."""

    protocol: str
    shown: Callable[[str], str] = whole


FORMATS = {
    "elements": Format("full"),  # agent/env/observation.py, as flat, heap and step see a page
    "synapse": Format("full", without_error_line),  # what Synapse's state abstraction reads
    "paper": Format("paper"),  # agent/env/paper_observation.py, the paper protocol's prompts
    "webwise": Format("full"),  # agent/policies/webwise_page.py: made by running the example's programs
}
PAGE_HEADERS = ("CURRENT PAGE:", "PAGE:", "FILTERED PAGE:")
_PAGE_END = re.compile(r"^(REASON|STATE|PROGRAM|PLAN|ACTION):")
_EXAMPLE = re.compile(r"^Example\b")
PROVENANCE_SUFFIX = ".provenance.json"


@dataclass(frozen=True)
class Scenario:
    protocol: str  # agent/experiment/protocols.py: its suite hands out the scenario, its observation shows it
    task: str
    seed: int


@dataclass(frozen=True)
class PageSource:
    """Where one page comes from: the page after these actions in a new episode of the scenario."""

    scenario: Scenario
    actions: tuple[str, ...]


@dataclass
class Example:
    title: str
    task_line: int | None  # index of its `TASK:` line in the file's lines
    pages: list[tuple[int, int]]  # [start, end) line ranges of its page blocks
    scenario: Scenario
    actions: tuple[str, ...] | None  # None: webwise, whose programs are its actions
    programs: list[str]  # webwise: the program written on each page
    code: str | None = None  # the confirmation code the example gives the booking its actions make

    def sources(self) -> list[PageSource]:
        return [] if self.actions is None else [PageSource(self.scenario, self.actions)]


@dataclass
class ExampleFile:
    name: str  # under agent/policies/prompts/, without .txt: "heap/planner_examples"
    format: str
    lines: list[str]
    examples: list[Example]

    root: Path = PROMPTS

    @property
    def path(self) -> Path:
        return self.root / f"{self.name}.txt"

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def page(self, example: Example, number: int = 0) -> str:
        start, end = example.pages[number]
        return "\n".join(self.lines[start:end])

    def task(self, example: Example) -> str | None:
        return None if example.task_line is None else self.lines[example.task_line].removeprefix("TASK:").strip()


class ProvenanceError(ValueError):
    """An example file and its provenance do not fit together."""


def example_names(root: Path = PROMPTS) -> list[str]:
    """Every example file under agent/policies/prompts/, as prompt names."""
    return sorted(str(path.relative_to(root).with_suffix("")) for path in root.rglob("*_examples.txt"))


def load(name: str, root: Path = PROMPTS) -> ExampleFile:
    text_path, sidecar = root / f"{name}.txt", root / f"{name}{PROVENANCE_SUFFIX}"
    if not sidecar.is_file():
        raise ProvenanceError(f"{text_path} has no provenance file {sidecar.name}: say where each example's page "
                              "comes from (see agent/examples/files.py)")
    try:
        provenance = json.loads(sidecar.read_text())
    except ValueError as error:
        raise ProvenanceError(f"{sidecar} is not JSON: {error}") from None
    fmt = provenance.get("format")
    if fmt not in FORMATS:
        raise ProvenanceError(f"{sidecar}: format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    lines = text_path.read_text().rstrip("\n").split("\n")
    blocks = _example_blocks(lines)
    entries = provenance.get("examples", [])
    if len(entries) != len(blocks):
        raise ProvenanceError(f"{sidecar}: {len(entries)} provenance entries for {len(blocks)} examples")
    examples = [_example(lines, block, entry, fmt, f"{name} / {lines[block[0]]}")
                for block, entry in zip(blocks, entries)]
    return ExampleFile(name, fmt, lines, examples, root)


def _example_blocks(lines: list[str]) -> list[tuple[int, int]]:
    starts = [number for number, line in enumerate(lines) if _EXAMPLE.match(line)]
    if not starts or starts[0] != 0:
        raise ProvenanceError("an example file starts with an 'Example' line")
    return list(zip(starts, starts[1:] + [len(lines)]))


def _example(lines: list[str], block: tuple[int, int], entry: dict, fmt: str, context: str) -> Example:
    start, end = block
    task_line, pages, programs = None, [], []
    number = start + 1
    while number < end:
        line = lines[number]
        if line.startswith("TASK:") and task_line is None:
            task_line = number
        if line in PAGE_HEADERS:
            first = number = number + 1
            while number < end and not _PAGE_END.match(lines[number]):
                number += 1
            pages.append((first, _without_blank_tail(lines, first, number)))
            continue
        if line == "PROGRAM:":
            first = number = number + 1
            while number < end and lines[number] not in PAGE_HEADERS:
                number += 1
            programs.append("\n".join(lines[first:_without_blank_tail(lines, first, number)]))
            continue
        number += 1
    if not pages:
        raise ProvenanceError(f"{context}: no page block ({' / '.join(PAGE_HEADERS)})")
    try:
        scenario = Scenario(FORMATS[fmt].protocol, str(entry["task"]), int(entry["seed"]))
    except (KeyError, TypeError, ValueError):
        raise ProvenanceError(f"{context}: its provenance needs a task and a seed, got {entry!r}") from None
    code = entry.get("code")
    if code is not None and not (isinstance(code, str) and re.fullmatch(r"[A-Z0-9]{6}", code)):
        raise ProvenanceError(f"{context}: code must be a confirmation code of 6 capitals and digits, got {code!r}")
    if fmt == "webwise":
        if "actions" in entry:
            raise ProvenanceError(f"{context}: a webwise example's programs are its actions; give no actions")
        return Example(lines[start], task_line, pages, scenario, None, programs, code)
    actions = entry.get("actions")
    if not isinstance(actions, list) or not all(isinstance(action, str) for action in actions):
        raise ProvenanceError(f"{context}: actions must be a list of action texts, got {actions!r}")
    if len(pages) != 1:
        raise ProvenanceError(f"{context}: {len(pages)} page blocks; an example of this format shows one page")
    return Example(lines[start], task_line, pages, scenario, tuple(actions), programs, code)


def _without_blank_tail(lines: list[str], first: int, end: int) -> int:
    while end > first and not lines[end - 1].strip():
        end -= 1
    return end


def rewritten(file: ExampleFile, pages: dict[tuple[int, int], str], tasks: dict[int, str]) -> str:
    """The file's text with page blocks (by line range) and TASK lines (by line index) replaced."""
    out, number = [], 0
    for start, end in sorted(pages):
        out += [_line(file, index, tasks) for index in range(number, start)]
        out += pages[(start, end)].split("\n")
        number = end
    out += [_line(file, index, tasks) for index in range(number, len(file.lines))]
    return "\n".join(out) + "\n"


def _line(file: ExampleFile, index: int, tasks: dict[int, str]) -> str:
    return f"TASK: {tasks[index]}" if index in tasks else file.lines[index]
