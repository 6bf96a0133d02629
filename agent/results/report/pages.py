"""The report's pages rendered from Jinja2 templates (agent/results/report/templates/). Everything that
comes from a trajectory is escaped by the template engine (autoescape); the only markup not
written by the templates is the charts, which are separate SVG files shown as images."""
from __future__ import annotations

import json
import urllib.parse
from collections import defaultdict
from datetime import datetime, timezone

from jinja2 import Environment, PackageLoader, StrictUndefined

from ..compare import describe_key, method_note, variant_gaps
from ..intervals import BOOTSTRAP
from ..summary import ALL_TASKS_ROW, METRICS, shown_dimensions, summarize_overall
from ..table import call_names, describe_intervals, format_cell, format_difference, format_p, format_rate, time_names
from .costs import LabelUsage
from .loading import OUTCOMES, Episode, Run
from .timeline import divergence, gold_views, handled_by_step, request_views, step_views, system_prompts

CHARTS = (
    ("success", "Success per task", "Mean success per task and label; error bars are the 95 % interval of the table."),
    ("progress", "Task progress per label", "Each dot is a complete episode; boxes show the quartiles."),
    ("actions", "Actions against gold steps", "Recorded actions against the number of gold steps, per episode "
     "(slightly spread sideways); on the dashed line an episode used exactly the gold number. Both sides count "
     "what is done on the page (or the API calls): the lines said to a customer on the line are left out of both."),
    ("tokens", "Tokens and cost per label", "Prompt and completion tokens summed over the complete episodes."),
    ("ends", "Why episodes ended", "stop: the agent stopped; max steps: the step limit; policy halt: the "
     "policy stack or planner gave up, or a tool call was malformed; crash: the episode broke; incomplete: not "
     "finished (yet)."),
)


def environment() -> Environment:
    env = Environment(loader=PackageLoader("agent.results.report", "templates"), autoescape=True, auto_reload=False,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(url=_url, pretty=_pretty, number=_number, compact=_compact)
    env.globals.update(outcomes=OUTCOMES, difference=format_difference, p_value=format_p,
                       describe_key=describe_key, note=method_note(), rate=format_rate, cell=format_cell)
    return env


def overview(env: Environment, run: Run, usages: list[LabelUsage], prices_given: bool, by_variant: bool = False) -> str:
    played = [e.trajectory for e in run.episodes if e.complete]
    # per dimension shown (UI, customer): its gaps against variant 0
    gaps = [(d, variant_gaps(played, d)) for d in shown_dimensions(played)] if by_variant else None
    return env.get_template("overview.html").render(
        gaps=gaps, gap_note=BOOTSTRAP.describe(),
        root="", run_name=run.folder.name, run=run, provenance=_provenance(run), found=_found(run),
        totals=_totals(run), table=_results_table(run), charts=CHARTS, usages=usages, prices_given=prices_given,
        episodes=[_episode_row(e, run) for e in run.episodes], filters=_filters(run),
        generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))


def episode_page(env: Environment, run: Run, episode: Episode, neighbours: tuple, shots: dict[int, str],
                 trace: dict | None) -> str:
    views = step_views(episode)
    requests = request_views(episode, views)
    root = "../../../"
    return env.get_template("episode.html").render(
        root=root, run_name=run.folder.name, e=episode, t=episode.data, views=views,
        requests=requests, handled=handled_by_step(requests),
        gold=gold_views(episode, views), diverged=divergence(episode, views), systems=system_prompts(episode),
        shots=shots, trace=trace, previous=_relative(neighbours[0], root), next=_relative(neighbours[1], root),
        compare=root + compare_path(episode.task, episode.seed), details=_details(episode))


def compare_page(env: Environment, run: Run, task: str, seed: int, episodes: list[Episode]) -> str:
    root = "../../"
    columns = []
    for episode in episodes:
        views = step_views(episode)
        columns.append({"e": episode, "views": views, "diverged": divergence(episode, views),
                        "href": root + _quote_path(episode.page)})
    # The page's gold steps, and the gold calls when an episode worked the JSON API.
    gold = next((e.gold_actions for e in episodes if e.gold_actions), [])
    gold_calls = next((e.gold for e in episodes if e.modality == "api" and e.gold), [])
    return env.get_template("compare.html").render(root=root, run_name=run.folder.name, task=task, seed=seed,
                                                   gold=gold, gold_calls=gold_calls, columns=columns)


def compare_file(task: str, seed: int) -> str:
    """The comparison page of (task, seed), relative to the report folder."""
    return f"compare/{task}/seed{seed}.html"


def compare_path(task: str, seed: int) -> str:
    return _quote_path(compare_file(task, seed))


def compare_groups(run: Run) -> dict[tuple[str, int], list[Episode]]:
    groups: dict[tuple[str, int], list[Episode]] = defaultdict(list)
    for episode in run.episodes:
        groups[(episode.task, episode.seed)].append(episode)
    return groups


def _results_table(run: Run) -> dict:
    """The papers' table: a row per task (and one over all tasks), a column group per label."""
    complete = [e.trajectory for e in run.episodes if e.complete]
    overall = summarize_overall(complete)
    rows = {(r["method"], r["task"]): r for r in run.rows + overall}
    names = ([name for name, _ in METRICS] + (["pass^k"] if any(r["pass_k"] != "" for r in run.rows) else [])
             + call_names(run.rows) + time_names(run.rows))  # the columns of the printed table, call verdicts too
    body = []
    for task in run.tasks + ([ALL_TASKS_ROW] if len(run.tasks) > 1 else []):
        cells = []
        for label in run.labels:
            row = rows.get((label, task))
            where = {"label": label} if task == ALL_TASKS_ROW else {"label": label, "task": task}
            broken = {outcome: run.count(outcome, **where) for outcome in ("crashed", "incomplete")}
            cells.append({"values": [format_cell(row, name) for name in names], "where": where,
                          "complete": row["episodes"] if row else 0, **broken})
        body.append({"task": task, "cells": cells})
    return {"labels": run.labels, "names": names, "rows": body, "intervals": describe_intervals(run.rows + overall)}


def _provenance(run: Run) -> list[tuple[str, object]]:
    return list((run.provenance or {}).items())


def _found(run: Run) -> list[tuple[str, str]]:
    """What the trajectories themselves say about the run (shown with or without run.json)."""
    seeds = sorted({e.seed for e in run.episodes})
    values = lambda key: sorted({str(e.settings[key]) for e in run.episodes  # noqa: E731
                                 if e.settings.get(key) not in (None, "")})
    found = [("labels", ", ".join(run.labels)), ("tasks", ", ".join(run.tasks)),
             ("seeds", f"{seeds[0]} to {seeds[-1]} ({len(seeds)})" if seeds else "-"),
             ("trials per seed", str(max((e.trial for e in run.episodes), default=-1) + 1))]
    for key in ("model", "temperature"):
        if values(key):
            found.append((key, ", ".join(values(key))))
    return found


def _totals(run: Run) -> dict:
    counts = {outcome: 0 for outcome in OUTCOMES}
    for episode in run.episodes:
        counts[episode.outcome] += 1
    return counts


def _filters(run: Run) -> dict:
    return {"task": run.tasks, "label": run.labels, "outcome": list(OUTCOMES)}


def _episode_row(episode: Episode, run: Run) -> dict:
    usage = episode.data.get("usage") or {}
    return {"e": episode, "href": _quote_path(episode.page), "compare": compare_path(episode.task, episode.seed),
            "tokens": int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0)),
            "seconds": episode.data.get("seconds")}


def _details(episode: Episode) -> list[tuple[str, object]]:
    details = (episode.data.get("scenario") or {}).get("details") or {}
    return list(details.items()) if isinstance(details, dict) else [("details", details)]


def _relative(episode: Episode | None, root: str) -> str | None:
    return root + _quote_path(episode.page) if episode else None


def _quote_path(path: str) -> str:
    return urllib.parse.quote(path)


def _url(where: dict) -> str:
    """A filter of the overview's episode list as the page's #fragment."""
    return urllib.parse.urlencode(where, quote_via=urllib.parse.quote)


def _pretty(value) -> str:
    if isinstance(value, (dict, list)):
        return json.dumps(value, indent=1, ensure_ascii=False)
    return str(value)


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _number(value) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)
