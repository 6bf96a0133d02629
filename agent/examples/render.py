"""An example file as the running CRM renders it: its page blocks and TASK lines replaced by the
pages and instructions its provenance leads to; everything the examples' authors wrote (titles,
histories, reasons, actions, plans, states, programs) is kept."""
from __future__ import annotations

import difflib

from tqdm import tqdm

from .files import FORMATS, Example, ExampleFile, ProvenanceError, rewritten
from .replay import Page, Replayer


def render_files(files: list[ExampleFile], replayer: Replayer) -> dict[str, str]:
    """Each file's text as the CRM renders it today, by name. All files are replayed together, so
    examples of different files that share a scenario share its episodes."""
    rendered = _pages(files, replayer)
    texts = {}
    for file in files:
        blocks, tasks = {}, {}
        for example in file.examples:
            shown = [FORMATS[file.format].shown(text) for text in _with_code(rendered[id(example)], example, file.name)]
            blocks.update(zip(example.pages, shown))
            if example.task_line is not None:
                tasks[example.task_line] = replayer.instructions[example.scenario]
        texts[file.name] = rewritten(file, blocks, tasks)
    return texts


def _pages(files: list[ExampleFile], replayer: Replayer) -> dict[int, list[Page]]:
    """The pages of every example (by the example's id()): one replay for all page sources, one
    episode per program example."""
    examples = [(file, example) for file in files for example in file.examples]
    by_source = replayer.pages(source for _, example in examples for source in example.sources())
    pages = {id(example): [by_source[source] for source in example.sources()] for _, example in examples}
    programs = [(file, example) for file, example in examples if example.actions is None]
    for file, example in tqdm(programs, desc="program examples", unit="", disable=not replayer.progress):
        pages[id(example)] = replayer.webwise_pages(example.scenario, example.programs)
        if len(pages[id(example)]) != len(example.pages):
            raise ProvenanceError(f"{file.name} / {example.title}: the programs were written on "
                                  f"{len(pages[id(example)])} pages, the example shows {len(example.pages)}")
    return pages


def _with_code(pages: list[Page], example: Example, name: str) -> list[str]:
    """The pages' texts, with the example's confirmation code for the booking the replay made."""
    booked = any(page.booked for page in pages)
    if example.code and not booked:
        raise ProvenanceError(f"{name} / {example.title}: gives code {example.code}, but its actions book nothing")
    if booked and not example.code:
        raise ProvenanceError(f"{name} / {example.title}: its actions book a flight; give the confirmation code the "
                              f'example shows for it as "code" in its provenance')
    return [page.text.replace(page.booked, example.code) if page.booked else page.text for page in pages]


def difference(file: ExampleFile, text: str) -> str:
    """A unified diff from the file as it is to `text` ('' when they are the same)."""
    return "".join(difflib.unified_diff(file.text.splitlines(keepends=True), text.splitlines(keepends=True),
                                        f"{file.name}.txt", f"{file.name}.txt (the CRM today)"))
