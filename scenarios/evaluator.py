"""Scoring an episode: which gold steps the recorded events met, and whether the task succeeded.

A pure function of the task, the scenario's details, its events and its initial and final states,
so a stored episode can be scored again at any time with the same result.

Matching: the gold steps fall into groups, each a run of fill steps ended by a click. A group's
click is met by a click event on that target; its fill steps are met when the field's committed
value at that click (`events.value_at`) equals the gold value. Groups are met in order, each by a
click after the previous group's, and the alignment that meets the most steps wins (among equally
good ones, the earliest clicks). A group whose click never happens meets none of its steps.
"""
from __future__ import annotations

from .events import value_at
from .state import difference
from .steps import describe
from .tasks.base import Outcome, Task

PASSED = "the goal holds and nothing else changed"


def evaluate(task: Task, details: dict, events: list[dict], initial: dict, final: dict) -> dict:
    gold = task.gold(details)
    best, choices = _align(gold, events)
    matched = _matched_steps(gold, events, choices)
    check = check_state(task, details, events, initial, final)
    success = int(check["passed"])
    progress = [round(score / len(gold), 4) for score in best]
    # An earlier prefix counts as complete once it met every gold step; the last entry carries the
    # verdict on the final state, which may also be reached by a path other than the gold one.
    completion = [int(success and score == len(gold)) for score in best]
    if completion:
        completion[-1] = success
    metrics = [{"step": i + 1, "action": describe(event), "task_completion": completion[i],
                "%complete": progress[i]} for i, event in enumerate(events)]
    if not metrics:
        metrics = [{"step": 0, "action": "", "task_completion": 0, "%complete": 0.0}]
    return {
        "success": success if events else 0,
        "task_progress": metrics[-1]["%complete"],
        "num_actions": len(events),
        "gold_actions": gold,
        "matched": matched,
        "state_check": check,
        "metrics": metrics,
    }


def check_state(task: Task, details: dict, events: list[dict], initial: dict, final: dict) -> dict:
    """The task's goal holds in `final`, and `final` is the state the gold steps leave."""
    expected = task.expect(initial, details)
    outcome = Outcome(details, events, initial, final, expected)
    reason = task.goal(outcome) or difference(final, expected, initial.keys())
    return {"passed": reason is None, "reason": reason or PASSED}


def groups(gold: list[dict]) -> list[tuple[list[int], int | None]]:
    """(indices of the fill steps, index of the click ending them) for each run of the gold steps."""
    found, fills = [], []
    for index, step in enumerate(gold):
        if step["action"] == "click":
            found.append((fills, index))
            fills = []
        else:
            fills.append(index)
    if fills:
        found.append((fills, None))
    return found


def _fills_met(gold: list[dict], fills: list[int], events: list[dict], at: int) -> list[int]:
    return [i for i in fills if value_at(events, at, gold[i]["target"]) == gold[i]["value"]]


def _align(gold: list[dict], events: list[dict]):
    """Steps met by the best alignment of events[:i + 1], for every i; and the table to trace it.

    `best[g][e + 1]` is the most steps groups 0..g can meet using events up to index e.
    """
    runs = groups(gold)
    count = len(events)
    previous = [0] * (count + 1)
    table = []
    for fills, click_index in runs:
        target = gold[click_index]["target"] if click_index is not None else None
        row, scores = [0] * (count + 1), {}
        for e, event in enumerate(events):
            row[e + 1] = max(previous[e + 1], row[e])
            if target and event.get("action") == "click" and event.get("target") == target:
                scores[e] = 1 + len(_fills_met(gold, fills, events, e))
                row[e + 1] = max(row[e + 1], scores[e] + previous[e])
        table.append((fills, click_index, previous, row, scores))
        previous = row
    return previous[1:], table


def _matched_steps(gold: list[dict], events: list[dict], table) -> list[bool]:
    """Trace the best alignment of all events back to the gold steps it meets."""
    matched = [False] * len(gold)
    e = len(events)
    for fills, click_index, before, row, scores in reversed(table):
        while e > 0 and row[e] == row[e - 1]:
            e -= 1  # the same score was reachable earlier
        if e > 0 and (e - 1) in scores and row[e] == scores[e - 1] + before[e - 1]:
            matched[click_index] = True
            for i in _fills_met(gold, fills, events, e - 1):
                matched[i] = True
            e -= 1
    return matched
