"""The table as the command line prints it: a first line naming the protocol the results were
measured under, then the table. Paper-protocol results take the layout of HeaP Fig. 5: a block of
rows per task (success, progress, #actions, ...) and one column per method label, with the papers'
reported numbers (agent/references/) in columns of their own beside the measured ones and their
sources under the table. Full-protocol results keep summary.format_table's layout."""
from __future__ import annotations

from .protocols import PROTOCOLS
from .references import Reference
from .summary import METRICS, STATUS_COLUMNS, TOKEN_COLUMNS, format_cell, format_table, task_order


def format_labelled(rows: list[dict], references: list[Reference] = (), overall: list[dict] = ()) -> str:
    """The protocol line, then the table of the per-task `rows`; a paper-protocol table also gets
    the `overall` rows (summary.summarize_overall) as a last block."""
    protocols = list(dict.fromkeys(row.get("protocol") or "full" for row in rows))
    title = "; ".join(f"Protocol {name}: {PROTOCOLS[name].description}." for name in protocols)
    if protocols != ["paper"]:
        return "\n".join([title, format_table(rows)])
    sources = [f"{ref.title} (reported, not measured here): {ref.source}. Model: {ref.model}." for ref in references]
    return "\n".join([title, format_paper_table([*rows, *overall], references), *sources])


def format_paper_table(rows: list[dict], references: list[Reference] = ()) -> str:
    labels = sorted({row["method"] for row in rows})
    tasks = sorted(dict.fromkeys(row["task"] for row in rows), key=task_order)
    cells = {(row["method"], row["task"]): row for row in rows}
    columns = [(label, lambda task, name, label=label: format_cell(cells.get((label, task)), name))
               for label in labels]
    for reference in references:  # beside the measured column of the same label, else at the end
        for label in reference.labels:
            column = (f"{label} ({reference.title})",
                      lambda task, name, label=label, ref=reference: _reference_cell(ref, label, task, name))
            place = max((i for i, (head, _) in enumerate(columns) if head.split(" (")[0] == label), default=None)
            columns.insert(len(columns) if place is None else place + 1, column)
    names = _row_names(rows)
    header = ["task", "metric"] + [head for head, _ in columns]
    body = [[task if i == 0 else "", name] + [cell(task, name) for _, cell in columns]
            for task in tasks for i, name in enumerate(names)]
    widths = [max(len(str(line[i])) for line in [header] + body) for i in range(len(header))]
    render = lambda line: "  ".join(str(c).ljust(w) for c, w in zip(line, widths)).rstrip()  # noqa: E731
    return "\n".join([render(header), render(["-" * w for w in widths])] + [render(line) for line in body])


def _row_names(rows: list[dict]) -> list[str]:
    """The metric rows of each task block: as summary.format_table's columns."""
    names = [name for name, _ in METRICS]
    if any(row["pass_k"] != "" for row in rows):
        names.append("pass^k")
    if any(row.get("prompt_tokens") or row.get("completion_tokens") for row in rows):
        names += [name for name, _ in TOKEN_COLUMNS]
    return names + list(STATUS_COLUMNS)


def _reference_cell(reference: Reference, label: str, task: str, name: str) -> str:
    return reference.cell(label, task, name) if name in (n for n, _ in METRICS) else ""
