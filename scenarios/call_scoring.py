"""Progress of an episode that worked the JSON API: which gold calls (`call_steps.py`) the recorded
calls met, in order.

A gold call is met by a recorded call of the same operation that the server answered with success
(a status below 400) and whose parameters hold every gold parameter with the gold value (objects
compared field by field, so the page's full passenger form meets a gold change of one field; a
gold `None` is met by an absent parameter). Gold calls are met in order: the recorded calls meeting
them come one after another, and the alignment meeting the most gold calls wins (a longest common
subsequence; among equally good ones, the earliest calls). A gold call that is never met leaves
the later ones free to be met.

Time is linear in the recorded calls times the gold calls (at most a handful).
"""
from __future__ import annotations


def call_met(gold: dict, recorded: dict) -> bool:
    return (recorded.get("operation") == gold["operation"] and _succeeded(recorded.get("status"))
            and _holds(gold["params"], recorded.get("params") or {}))


def _succeeded(status) -> bool:
    return isinstance(status, int) and status < 400


def _holds(wanted: dict, given) -> bool:
    if not isinstance(given, dict):
        return False
    for key, value in wanted.items():
        if isinstance(value, dict):
            if not _holds(value, given.get(key)):
                return False
        elif given.get(key) != value:
            return False
    return True


def align_calls(gold: list[dict], calls: list[dict]) -> tuple[list[int], list[bool]]:
    """Gold calls met by calls[:i + 1] for every i, and which gold calls the whole list meets.

    `rows[i][j]` is the most of gold[:j] that calls[:i] meet in order (row 0: no calls yet).
    """
    rows = [[0] * (len(gold) + 1)]
    for recorded in calls:
        before, row = rows[-1], [0]
        for j, wanted in enumerate(gold):
            row.append(max(before[j + 1], row[j], before[j] + 1 if call_met(wanted, recorded) else 0))
        rows.append(row)
    return [row[-1] for row in rows[1:]], _trace(gold, calls, rows)


def _trace(gold: list[dict], calls: list[dict], rows: list[list[int]]) -> list[bool]:
    """The gold calls of the best alignment, preferring the earliest recorded calls."""
    matched = [False] * len(gold)
    i, j = len(calls), len(gold)
    while i > 0 and j > 0:
        if rows[i][j] == rows[i - 1][j]:
            i -= 1  # the same was reached without this call
        elif rows[i][j] == rows[i][j - 1]:
            j -= 1  # gold call j is not met here
        else:
            matched[j - 1] = True
            i, j = i - 1, j - 1
    return matched
