"""The overview's charts, drawn with matplotlib and saved as SVG files (text kept as text, no
timestamp, fixed ids, so the same run always gives the same files)."""
from __future__ import annotations

import io
import random
from collections import Counter

import matplotlib
from matplotlib.figure import Figure

from .costs import LabelUsage
from .loading import END_CAUSES, Run

SVG_STYLE = {"svg.fonttype": "none", "svg.hashsalt": "airlinecrm-report", "font.size": 9,
             "axes.spines.top": False, "axes.spines.right": False}
PALETTE = matplotlib.colormaps["tab10"].colors
CAUSE_COLOURS = {"stop": "#4c9a2a", "success": "#2e86c1", "max_steps": "#e0a100", "policy_halt": "#8e44ad",
                 "crash": "#c0392b", "incomplete": "#95a5a6"}


def draw_all(run: Run, usages: list[LabelUsage]) -> dict[str, str]:
    """Chart name -> SVG text."""
    colours = {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(run.labels)}
    with matplotlib.rc_context(SVG_STYLE):
        return {"success": success_by_task(run, colours), "progress": progress_by_label(run, colours),
                "actions": actions_against_gold(run, colours), "tokens": tokens_by_label(usages, colours),
                "ends": end_causes(run)}


def success_by_task(run: Run, colours: dict) -> str:
    """Grouped bars: success rate per task and label, with its 95 % interval as error bars."""
    rows = {(r["method"], r["task"]): r for r in run.rows}
    tasks, labels = run.tasks, run.labels
    fig = Figure(figsize=(min(12.0, 3.0 + 1.4 * len(tasks)), 3.4))
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(labels))
    for i, label in enumerate(labels):
        found = [rows.get((label, task)) for task in tasks]
        xs = [t + (i - (len(labels) - 1) / 2) * width for t in range(len(tasks))]
        ax.bar(xs, [r["success_mean"] if r else 0 for r in found], width, label=label, color=colours[label],
               yerr=interval_bars(found), capsize=2, error_kw={"elinewidth": 0.8})
    ax.set_xticks(range(len(tasks)), [_short(task) for task in tasks], rotation=20, ha="right")
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("success (95 % interval)")
    _note_if_empty(ax, not run.rows)
    _legend(ax)
    return _svg(fig)


def interval_bars(rows: list[dict | None]) -> list[list[float]]:
    """Error bars from each row's success rate down to `success_low` and up to `success_high` (the
    table's 95 % interval); none for a missing row or one made before rows had intervals."""
    def extent(row: dict | None, bound: str) -> float:
        if not row or row.get(bound) in (None, ""):
            return 0.0
        return abs(float(row[bound]) - float(row["success_mean"]))
    return [[extent(row, "success_low") for row in rows], [extent(row, "success_high") for row in rows]]


def progress_by_label(run: Run, colours: dict) -> str:
    """Box plot of task progress over the complete episodes of each label, every episode a dot."""
    labels = run.labels
    values = [[float(e.metrics.get("task_progress", 0)) for e in run.episodes if e.complete and e.label == label]
              for label in labels]
    fig = Figure(figsize=(max(4.5, 1.2 * len(labels) + 1.5), 3.4))
    ax = fig.add_subplot()
    jitter = random.Random(0)
    for i, (label, points) in enumerate(zip(labels, values)):
        if points:
            ax.boxplot([points], positions=[i], widths=0.5, showfliers=False,
                       medianprops={"color": "black"}, boxprops={"color": colours[label]})
            ax.scatter([i + jitter.uniform(-0.18, 0.18) for _ in points], points, s=8, alpha=0.5,
                       color=colours[label], linewidths=0)
    ax.set_xticks(range(len(labels)), labels, rotation=15, ha="right")
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylim(-0.05, 1.05)
    ax.set_ylabel("task progress per episode")
    _note_if_empty(ax, not any(values))
    return _svg(fig)


def actions_against_gold(run: Run, colours: dict) -> str:
    """Each complete episode: its number of recorded actions against its number of gold steps done
    on the page (Episode.gold_done: neither side counts the lines to a customer; gold calls and
    recorded calls, for an episode that worked the JSON API)."""
    fig = Figure(figsize=(5.6, 3.6))
    ax = fig.add_subplot()
    jitter = random.Random(0)
    top = 1
    for label in run.labels:
        points = [(len(e.gold_done), int(e.metrics.get("num_actions", 0)))
                  for e in run.episodes if e.complete and e.label == label]
        if points:
            top = max(top, *(max(p) for p in points))
            ax.scatter([g + jitter.uniform(-0.25, 0.25) for g, _ in points], [n for _, n in points], s=10,
                       alpha=0.6, color=colours[label], label=label, linewidths=0)
    ax.plot([0, top], [0, top], linestyle="--", color="grey", linewidth=0.8, label="= gold")
    ax.set_xlabel("gold steps on the page (or calls)")
    ax.set_ylabel("actions recorded")
    _note_if_empty(ax, not run.rows)
    _legend(ax)
    return _svg(fig)


def tokens_by_label(usages: list[LabelUsage], colours: dict) -> str:
    """Prompt and completion tokens per label, stacked; the cost beside each bar when it is known."""
    labels = [u.label for u in usages]
    fig = Figure(figsize=(6.0, max(1.8, 0.45 * len(labels) + 1.2)))
    ax = fig.add_subplot()
    prompt = [u.prompt_tokens for u in usages]
    completion = [u.completion_tokens for u in usages]
    ax.barh(labels, prompt, color="#5b8def", label="prompt tokens")
    ax.barh(labels, completion, left=prompt, color="#f29e4c", label="completion tokens")
    widest = max([p + c for p, c in zip(prompt, completion)] + [1])
    for y, usage in enumerate(usages):
        ax.text(usage.prompt_tokens + usage.completion_tokens + widest * 0.01, y, _usage_note(usage),
                va="center", fontsize=8)
    if not any(prompt) and not any(completion):
        ax.text(0.5, 0.5, "no model calls in this run", transform=ax.transAxes, ha="center", color="grey")
    ax.set_xlim(0, widest * 1.5)
    ax.invert_yaxis()
    ax.set_xlabel("tokens (all episodes)")
    _legend_below(ax, 2)
    return _svg(fig)


def end_causes(run: Run) -> str:
    """Why the episodes of each label ended, stacked counts."""
    labels = run.labels
    counts = Counter((e.label, e.end_cause) for e in run.episodes)
    causes = [c for c in END_CAUSES if any(counts[(label, c)] for label in labels)]
    fig = Figure(figsize=(6.0, max(1.8, 0.45 * len(labels) + 1.2)))
    ax = fig.add_subplot()
    left = [0] * len(labels)
    for cause in causes:
        widths = [counts[(label, cause)] for label in labels]
        ax.barh(labels, widths, left=left, color=CAUSE_COLOURS[cause], label=cause.replace("_", " "))
        left = [a + b for a, b in zip(left, widths)]
    ax.invert_yaxis()
    ax.set_xlabel("episodes")
    _legend_below(ax, len(causes))
    return _svg(fig)


def _usage_note(usage: LabelUsage) -> str:
    if usage.cost is None:
        return f"cost: no price for {', '.join(sorted(usage.unpriced))}"
    if not usage.prompt_tokens and not usage.completion_tokens:
        return ""
    return f"${usage.cost:,.2f}" if usage.cost >= 0.01 else f"${usage.cost:.4f}"


def _note_if_empty(ax, empty: bool) -> None:
    if empty:
        ax.text(0.5, 0.5, "no complete episodes yet", transform=ax.transAxes, ha="center", color="grey")


def _legend(ax) -> None:
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _legend_below(ax, columns: int) -> None:
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, frameon=False, ncols=max(1, columns), loc="upper center", bbox_to_anchor=(0.5, -0.3))


def _short(task: str) -> str:
    return task.removeprefix("TASK_").replace("_", " ").lower()


def _svg(fig: Figure) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buffer.getvalue()
