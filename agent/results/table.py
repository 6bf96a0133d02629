"""The table as the command line prints it: a first line naming the protocol the results were
measured under, then the table. Paper-protocol results take the layout of HeaP Fig. 5: a block of
rows per task (success, progress, #actions, ...) and one column per method label, with the papers'
reported numbers (agent/results/references/) in columns of their own beside the measured ones and their
sources under the table. Other results: one row per task, a group of columns per method label
(format_table), or, for more labels than that shows in the terminal's width, the long form: a row
per label and task (format_long_table), its columns in blocks as wide as the terminal. Each label's
rows end with its total over all tasks (summary.summary_rows). Every table is laid out by
render_table. A rate's cell ends with its 95 % interval, `[low, high]`, and the first line says how
the intervals were made (intervals.py)."""
from __future__ import annotations

import math
import textwrap

from ..experiment.protocols import PROTOCOLS
from ..episode.variants import Dimension
from .compare import ALL_OTHERS, Comparison, Gap, describe_key, method_note
from .intervals import BOOTSTRAP, WILSON, format_interval
from .references import Reference
from .summary import (ALL_TASKS_ROW, CALL_RATES, EMBEDDING_COLUMN, METRICS, REQUESTS_COLUMN, STATUS_COLUMNS,
                      TIME_COLUMN, TOKEN_COLUMNS, UNKNOWN, VIOLATION_RATES, VIOLATIONS_COLUMN, had_a_call, had_requests,
                      had_times, had_violations,
                      task_order)


WIDE_METHODS = 2  # a run of more methods is printed in the long form, unless --wide


def format_labelled(rows: list[dict], references: list[Reference] = (), width: int | None = None,
                    wide: bool = False) -> str:
    """The protocol line, then the table of summary_rows() `rows` (per task, each label's total last).
    Paper-protocol results take the papers' layout; the others the wide one (format_table) when
    `wide` or no `width` is given, or when it has at most WIDE_METHODS labels and fits `width`
    characters, else the long form fitted to `width` (format_long_table); the protocol line is then
    wrapped to `width` too."""
    protocols = list(dict.fromkeys(row.get("protocol") or "full" for row in rows))
    title = " ".join(["; ".join(f"Protocol {name}: {PROTOCOLS[name].description}." for name in protocols),
                      describe_intervals(rows)])
    rows = [_total_named_by_suite(row) for row in rows] if len(protocols) > 1 else rows
    if protocols == ["paper"]:
        sources = [f"{ref.title} (reported, not measured here): {ref.source}. Model: {ref.model}." for ref in references]
        return "\n".join([title, format_paper_table(rows, references), *sources])
    table = format_table(rows)
    if wide or width is None:
        return "\n".join([title, table])
    if len(_labels(rows)) > WIDE_METHODS or _widest(table) > width:
        table = format_long_table(rows, width)
    return "\n".join([textwrap.fill(title, width), table])


def _total_named_by_suite(row: dict) -> dict:
    """A total row whose task names its suite, for a table of several suites: `all tasks (hard)`."""
    return {**row, "task": f"{ALL_TASKS_ROW} ({row['protocol']})"} if row["task"] == ALL_TASKS_ROW else row


def _labels(rows: list[dict]) -> list[str]:
    return sorted({row["method"] for row in rows})


def _widest(text: str) -> int:
    return max(map(len, text.splitlines()), default=0)


def describe_intervals(rows: list[dict]) -> str:
    """Which intervals the rows' cells show, with the bootstrap's parameters."""
    bootstrap = BOOTSTRAP.describe()
    if "wilson" not in {row.get("interval") for row in rows}:
        return f"{BOOTSTRAP.confidence:.0%} intervals: {bootstrap}."
    return (f"{BOOTSTRAP.confidence:.0%} intervals: {WILSON} for success and under policy (one play per scenario), "
            f"{bootstrap} for progress and pass^k.")


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
    names = _column_names(rows)  # a block's metric rows: format_table's columns
    header = ["task", "metric"] + [head for head, _ in columns]
    body = [[task if i == 0 else "", name] + [cell(task, name) for _, cell in columns]
            for task in tasks for i, name in enumerate(names)]
    return render_table(header, body)


def time_names(rows: list[dict]) -> list[str]:
    """The time per task's column, when a person played (summary.had_times)."""
    return [TIME_COLUMN[0]] if had_times(rows) else []


def call_names(rows: list[dict]) -> list[str]:
    """The columns of the verdicts on the call, when any episode had one (the hard suite), and the
    violation rates per kind, when any was judged for violations (the expert suite)."""
    verdicts = ([name for name, _ in CALL_RATES] + [VIOLATIONS_COLUMN[0]]
                + ([REQUESTS_COLUMN[0]] if had_requests(rows) else [])) if had_a_call(rows) else []
    return verdicts + ([name for name, _ in VIOLATION_RATES] if had_violations(rows) else [])


def _reference_cell(reference: Reference, label: str, task: str, name: str) -> str:
    return reference.cell(label, task, name) if name in (n for n, _ in METRICS) else ""


def format_table(rows: list[dict]) -> str:
    """Rows are tasks, each method a group of columns: success, progress, #actions (mean ± se)."""
    methods = _labels(rows)
    tasks = sorted(dict.fromkeys(r["task"] for r in rows), key=task_order)
    cells = {(r["method"], r["task"]): r for r in rows}
    names = _column_names(rows)
    header = ["task"] + [f"{m} {n}" for m in methods for n in names]
    body = []
    for task in tasks:
        line = [task]
        for method in methods:
            row = cells.get((method, task))
            line += [format_cell(row, name) for name in names]
        body.append(line)
    return render_table(header, body)


def format_long_table(rows: list[dict], width: int) -> str:
    """A row per label and task (the label's totals after its tasks), a column per metric; columns
    that do not fit `width` go on in further blocks, each repeating the label and task."""
    names = _column_names(rows)
    ordered = sorted(rows, key=lambda row: (row["method"], task_order(row["task"])))
    body = [[row["method"], row["task"]] + [format_cell(row, name) for name in names] for row in ordered]
    return render_blocks(["method", "task"] + names, body, 2, width)


def _column_names(rows: list[dict]) -> list[str]:
    """A label's columns: METRICS, then pass^k, the call's verdicts, tokens and time where the rows have them."""
    show_pass = any(r["pass_k"] != "" for r in rows)
    show_tokens = any(r.get("prompt_tokens") or r.get("completion_tokens") for r in rows)
    show_embedding = any(r.get("embedding_tokens") for r in rows)
    return ([name for name, _ in METRICS] + (["pass^k"] if show_pass else []) + call_names(rows)
            + ([name for name, _ in TOKEN_COLUMNS] if show_tokens else [])
            + ([EMBEDDING_COLUMN[0]] if show_embedding else []) + time_names(rows) + list(STATUS_COLUMNS))


def format_cell(row: dict | None, name: str) -> str:
    """One cell of the table (a METRICS name, "pass^k", a token, call or time column) for a summarize() row."""
    if row is None:
        return "-"
    tokens = dict(TOKEN_COLUMNS + (EMBEDDING_COLUMN,))
    if name in tokens:
        return str(row.get(tokens[name], 0))
    if name in STATUS_COLUMNS:
        return str(row[name])
    if name == TIME_COLUMN[0]:
        return "-" if row.get(TIME_COLUMN[1], "") == "" else f"{row[TIME_COLUMN[1]]:.1f}"
    if name == "pass^k":
        return f"{row['pass_k']:.2f} {_interval(row, 'pass_k')} (k={row['k']})" if row["pass_k"] != "" else "-"
    if name == REQUESTS_COLUMN[0]:
        value = row.get("requests_ok_mean", "")
        return "-" if value == "" else f"{value:.2f} {_interval(row, 'requests_ok')}"
    violations = dict(VIOLATION_RATES)
    if name in violations:
        value = row.get(f"{violations[name]}_rate", "")
        return "-" if value == "" else f"{value:.2f} {_interval(row, violations[name])}"
    rates = dict(CALL_RATES)
    if name in rates or name == VIOLATIONS_COLUMN[0]:
        value = row.get(f"{rates[name]}_rate" if name in rates else VIOLATIONS_COLUMN[1], "")
        if value == "" or name not in rates:
            return "-" if value == "" else str(value)
        return f"{value:.2f} {_interval(row, 'under_policy')}" if name == "under policy" else f"{value:.2f}"
    column = "actions" if name == "#actions" else name
    digits = 1 if name == "#actions" else 2
    average, error = row[column + "_mean"], row[column + "_se"]
    if math.isnan(average):
        return "-"
    cell = f"{average:.{digits}f} ± {UNKNOWN if math.isnan(error) else f'{error:.{digits}f}'}"
    return cell if name == "#actions" else f"{cell} {_interval(row, column)}"


def _interval(row: dict, name: str) -> str:
    return format_interval(row.get(f"{name}_low", math.nan), row.get(f"{name}_high", math.nan))


def render_table(header: list[str], body: list[list], rule: bool = True) -> str:
    """Columns padded to their widest cell, two spaces apart; a dashed rule under the header."""
    widths = [max(len(str(line[i])) for line in [header] + body) for i in range(len(header))]
    render = lambda line: "  ".join(str(c).ljust(w) for c, w in zip(line, widths)).rstrip()  # noqa: E731
    rules = [render(["-" * w for w in widths])] if rule else []
    return "\n".join([render(header), *rules] + [render(line) for line in body])


def render_blocks(header: list[str], body: list[list], keys: int, width: int) -> str:
    """render_table cut into blocks of columns no wider than `width` together, a blank line apart;
    each block starts with the first `keys` columns (a block wider still holds one column)."""
    widths = [max(len(str(line[i])) for line in [header] + body) for i in range(len(header))]
    blocks = [[]]
    for column in range(keys, len(header)):
        chosen = [*range(keys), *blocks[-1], column]
        if blocks[-1] and sum(widths[i] for i in chosen) + 2 * (len(chosen) - 1) > width:
            blocks.append([])
        blocks[-1].append(column)
    pick = lambda line, block: [line[i] for i in [*range(keys), *block]]  # noqa: E731
    return "\n\n".join(render_table(pick(header, block), [pick(line, block) for line in body]) for block in blocks)


def format_comparison(comparison: Comparison) -> str:
    """`compare`'s text: which runs, what paired and what did not, the table of differences, the
    method, and the episodes that flipped."""
    a, b = comparison.a, comparison.b
    lines = [f"A = {a.name} ({len(a.episodes)} episodes), B = {b.name} ({len(b.episodes)} episodes)",
             f"Paired by (suite, task, seed, UI variant, customer variant, trial): {comparison.paired} episode pairs. "
             f"Not paired: {_unpaired(comparison.only_a, 'A')}; {_unpaired(comparison.only_b, 'B')}."]
    header = ["task", "pairs", "A success", "B success", "A - B [95% interval]", "McNemar p", "won by A only",
              "won by B only", "A progress", "B progress", "progress A - B [95% interval]"]
    body = [[line.task, line.pairs, f"{line.a_success:.2f}", f"{line.b_success:.2f}", format_difference(line.difference),
             format_p(line.mcnemar_p), len(line.a_only), len(line.b_only), f"{line.a_progress:.2f}",
             f"{line.b_progress:.2f}", format_difference(line.progress_difference)] for line in comparison.lines]
    flips = [f"{who}: {', '.join(map(describe_key, keys)) or 'none'}" for who, keys in (
        ("Won by A only", [k for line in comparison.lines[:_tasks(comparison)] for k in line.a_only]),
        ("Won by B only", [k for line in comparison.lines[:_tasks(comparison)] for k in line.b_only]))]
    return "\n".join([*lines, render_table(header, body), method_note(), *flips])


def _tasks(comparison: Comparison) -> int:
    """How many of the lines are tasks (the last is over all tasks when there are several)."""
    return len(comparison.lines) - (len(comparison.lines) > 1)


def _unpaired(keys: list, run: str) -> str:
    if not keys:
        return f"none only in {run}"
    return f"{len(keys)} only in {run} ({', '.join(map(describe_key, keys))})"


def format_difference(value: tuple[float, float, float]) -> str:
    return f"{value[0]:+.2f} {format_interval(value[1], value[2])}"


def format_p(p: float) -> str:
    return "1" if p == 1 else f"{p:.3g}" if p >= 0.001 else f"{p:.1e}"


def format_rate(row: dict, name: str = "success") -> str:
    """A rate of a summary row with its interval, without the standard error: `0.80 [0.49, 0.94]`."""
    average = row.get(f"{name}_mean", math.nan)
    return "-" if math.isnan(average) else f"{average:.2f} {_interval(row, name)}"


def format_leaderboard(standings: list) -> str:
    """The leaderboard's ranking as text (leaderboard.rank's standings)."""
    header = ["rank", "run", "episodes", "success [95% interval]", "separable from the leader"]
    body = [[s.rank, s.entry.name, s.overall["episodes"], format_rate(s.overall),
             "leader" if s.separable is None else "yes" if s.separable else "no (intervals overlap)"] for s in standings]
    return render_table(header, body)


def format_variant_gaps(dimension: Dimension, gaps: list[Gap]) -> str:
    """The generalization gap of `summarize --by-variant` in one dimension: variant 0 against each
    other variant (and all of them together), paired."""
    first = dimension.describe(0)
    if not gaps:
        return f"No scenario was played both in {dimension.noun} 0 and in another, so no paired gap can be given."
    header = ["label", dimension.noun, "scenarios", f"{first} success", "its success", "gap [95% interval]"]
    body = [[gap.label, gap.variant, gap.scenarios, f"{gap.base:.2f}", f"{gap.others:.2f}", format_difference(gap.gap)]
            for gap in gaps]
    title = (f"Generalization gap by {dimension.noun}: success in {first} minus in each other {dimension.noun} "
             f"({ALL_OTHERS}: their mean), on the same scenarios (paired {BOOTSTRAP.describe()}).")
    return "\n".join([title, render_table(header, body)])
