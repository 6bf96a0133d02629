"""Scoring an episode: which gold steps the recorded events met, and whether the task succeeded.

A pure function of the task, the scenario's details, its events, the API calls the server answered
inside it and its initial and final states, so a stored episode can be scored again at any time
with the same result. Card data in events is stored protected (`card_data.py`); the caller passes
the same `protect` so that gold values are compared in that form.

Success is the verdict on the final state (and, for the read-only tasks, on the last request the
server answered), nothing else. Progress tells how much of the gold path the page events walked:
the gold steps fall into groups, each a run of fill steps ended by a click. A group's click is met
by a click event on that target; its fill steps are met when the field's committed value at that
click (`events.committed_values`) equals the gold value. Groups are met in order, each by a click
after the previous group's, and the alignment that meets the most steps wins (among equally good
ones, the earliest clicks). A group whose click never happens meets none of its steps.

`num_actions` counts actions, not events: consecutive fills of the same field with nothing between
them are one action (`events.action_ends`), and `metrics` has one entry per action.

The committed values at every click are read in one pass, so scoring takes time linear in the
number of events times the number of groups.

An episode is scored in one of two modalities. `ui` (above) scores the page events against the
gold steps; `api` scores the JSON API calls the server recorded against the task's gold calls
(`call_scoring.py`): progress, `matched`, `num_actions` and `metrics` then count calls. Asked for
none, the evaluator picks: `ui` when the page recorded events, else `api` when the server recorded
calls, else `ui`. Success is the same final-state verdict in both.
"""
from __future__ import annotations

from itertools import accumulate

from .call_scoring import align_calls
from .call_steps import protect_card_data
from .calls import describe_call
from .card_data import Protect, keep
from .conversation_scoring import CALL_VERDICTS, SCORING_VERSION, STATE, call_passed, judge, says_met
from .customer.variants import PLAIN, CustomerVariant
from .events import action_ends, committed_values
from .state import difference
from .steps import CALL_STEPS, describe
from .tasks.base import Outcome, Task
from .tasks.expert.scoring import judge_requests
from .violations import violations as violations_of

PASSED = "the goal holds and nothing else changed"
CALL_ONLY = "(the call with the customer)"  # the metrics' one entry of an episode that only talked
MODALITIES = ("ui", "api")


def evaluate(task: Task, details: dict, events: list[dict], initial: dict, final: dict,
             calls: list[dict] = (), protect: Protect = keep, modality: str | None = None,
             messages: list[dict] = (), caller: CustomerVariant = PLAIN) -> dict:
    """The scores of the episode in `modality` (None: chosen by `modality_of`); a hard-suite
    episode (its details hold what is `expected` of the call) is also judged on its `messages`,
    said with a caller of customer variant `caller` (which may ask for other gold lines)."""
    calls = list(calls)
    modality = modality or modality_of(events, calls)
    outcome = Outcome(details, events, initial, final, task.expect(initial, details), calls)
    check = state_verdict(task, outcome)
    new_codes = [code for code in final if code not in initial]
    call = judge(details, list(messages), calls, new_codes, initial, caller) if "expected" in details else None
    # the verdict on each request of a call of several (the expert suite's details list them)
    broken = violations_of(details, list(messages), calls) if "requests" in details else None
    requests = judge_requests(outcome, list(messages), new_codes, broken) if broken is not None else None
    success = int(check["passed"] and (call is None or call_passed(call)) and all(r["ok"] for r in requests or ())
                  and not broken)
    gold = _carried(caller.gold(task.gold(details), details, initial))
    gold_calls = _carried(caller.gold_calls(task.gold_calls(details), details, initial))
    walked = [step for step in gold if step["action"] not in CALL_STEPS]  # the page's steps; the rest are the call's
    if modality == "api":
        done, matched = align_calls([protect_card_data(call, protect) for call in gold_calls], calls)
        actions, total = [describe_call(call) for call in calls], len(gold_calls)
    else:
        runs = groups(walked)
        done, table = _align(runs, len(events), _fills_met(walked, runs, events, protect))
        matched = _matched_steps(len(walked), len(events), table)
        ends = action_ends(events)
        done, actions, total = [done[i] for i in ends], [describe(events[i]) for i in ends], len(walked)
    if call is not None:
        done, matched, total = _with_says(gold, done, matched, total, modality, list(messages), details, new_codes,
                                          caller)
        if not actions and done:  # the call went on, the page (or the API) was never used
            actions = [CALL_ONLY]
        check = _with_call(check, call)
    progress = _progress(done, actions, total, success)
    if requests is not None:  # an expert call's progress: the share of its requests handled right
        progress["task_progress"] = round(sum(r["ok"] for r in requests) / len(requests), 4)
    return {
        "modality": modality,
        "success": success,
        **progress,
        "num_actions": len([action for action in actions if action != CALL_ONLY]),
        "gold_actions": gold,
        "gold_calls": gold_calls,
        "matched": matched,
        "state_check": check,
        **({key: call[key] for key in CALL_VERDICTS if key in call}
           | {"state_ok": check["state_ok"], "scoring_version": SCORING_VERSION} if call else {}),
        **({"requests": requests, "violations": broken} if requests is not None else {}),
    }


def _carried(steps: list[dict]) -> list[dict]:
    """Gold steps (or calls) of a call of several requests, each tagged with its `request`: a step a
    caller's variant added takes the tag of the step before it."""
    if not any("request" in step for step in steps):
        return steps
    tagged, last = [], 0
    for step in steps:
        last = step.get("request", last)
        tagged.append({**step, "request": last})
    return tagged


def _with_says(gold: list[dict], done: list[int], matched: list[bool], total: int, modality: str,
               messages: list[dict], details: dict, new_codes: list[str], caller: CustomerVariant):
    """Progress counting the gold `say` steps too: those the call met count at the last action (the
    call is not ordered against the page's events). In the ui modality `matched` covers every gold step."""
    says = [step for step in gold if step["action"] in CALL_STEPS]
    met = says_met(says, messages, details, new_codes, caller)
    if done:
        done = [*done[:-1], done[-1] + sum(met)]
    elif any(met):
        done = [sum(met)]
    if modality == "ui":
        walked, heard = iter(matched), iter(met)
        matched = [next(heard) if step["action"] in CALL_STEPS else next(walked) for step in gold]
    return done, matched, total + len(says)


def _with_call(check: dict, call: dict) -> dict:
    """The state check with the call's verdicts: passed only when both hold; `reason` names the first
    failure, `reasons` every one (`reason` first) and `failed` each part that failed, the state first."""
    passed = check["passed"] and call_passed(call)
    reason = call["judgment"] or (check["reason"] if not check["passed"] else call["reasons"][0] if not passed else PASSED)
    failures = [*([] if check["passed"] else [(STATE, check["reason"])]), *call["failures"]]
    reasons = [*([reason] if reason != PASSED else []), *(said for _, said in failures if said != reason)]
    return {"passed": passed, "reason": reason, "state_ok": check["passed"], "reasons": reasons,
            "failed": list(dict.fromkeys(part for part, _ in failures))}


def modality_of(events: list[dict], calls: list[dict]) -> str:
    """`ui` when the page recorded events; else `api` when the server recorded calls; else `ui`."""
    return "api" if calls and not events else "ui"


def _progress(done: list[int], actions: list[str], total: int, success: int) -> dict:
    """`task_progress` and the per-action `metrics` from the gold steps (or calls) met after each action."""
    shares = {score: round(score / total, 4) for score in range(total + 1)}
    # An earlier prefix counts as complete once it met every gold step; the last entry carries the
    # verdict on the final state, which may also be reached by a path other than the gold one.
    completion = [int(success and score == total) for score in done]
    if completion:
        completion[-1] = success
    metrics = [{"step": i + 1, "action": action, "task_completion": completion[i], "%complete": shares[done[i]]}
               for i, action in enumerate(actions)]
    if not metrics:
        metrics = [{"step": 0, "action": "", "task_completion": success, "%complete": 0.0}]
    return {"task_progress": metrics[-1]["%complete"], "metrics": metrics}


def state_verdict(task: Task, outcome: Outcome) -> dict:
    """The task's goal holds in the final state, and it is the state the gold steps leave."""
    reason = task.goal(outcome) or difference(outcome.final, outcome.expected, outcome.initial.keys())
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


def _fills_met(gold: list[dict], runs, events: list[dict], protect: Protect) -> list[dict[int, list[int]]]:
    """For each group, {index of a click event on its target: the group's fill steps met there}."""
    wanted = {i: protect(step["target"], step["value"]) for i, step in enumerate(gold) if step["action"] == "fill"}
    groups_of: dict[str, list[int]] = {}  # click target -> the groups it ends
    for g, (_fills, click) in enumerate(runs):
        if click is not None:
            groups_of.setdefault(gold[click]["target"], []).append(g)
    fields_of = {target: {gold[i]["target"] for g in found for i in runs[g][0]} for target, found in groups_of.items()}
    met: list[dict[int, list[int]]] = [{} for _ in runs]
    for e, values in committed_values(events, fields_of).items():
        for g in groups_of[events[e]["target"]]:
            met[g][e] = [i for i in runs[g][0] if values[gold[i]["target"]] == wanted[i]]
    return met


def _align(runs, count: int, met: list[dict[int, list[int]]]):
    """Steps met by the best alignment of events[:i + 1], for every i; and the table to trace it.

    `row[e + 1]` of group g is the most steps groups 0..g can meet using events up to index e.
    """
    previous = [0] * (count + 1)
    table = []
    for (fills, click_index), clicks in zip(runs, met):
        scores = {e: 1 + len(found) for e, found in clicks.items()}
        # row[e + 1] = max(previous[e + 1], row[e], scores[e] + previous[e]): a running maximum
        candidates = previous[1:]
        for e, score in scores.items():
            candidates[e] = max(candidates[e], score + previous[e])
        row = [0, *accumulate(candidates, max)]
        table.append((fills, click_index, previous, row, scores, clicks))
        previous = row
    return previous[1:], table


def _matched_steps(steps: int, count: int, table) -> list[bool]:
    """Trace the best alignment of all events back to the gold steps it meets."""
    matched = [False] * steps
    e = count
    for _fills, click_index, before, row, scores, clicks in reversed(table):
        while e > 0 and row[e] == row[e - 1]:
            e -= 1  # the same score was reachable earlier
        if e > 0 and (e - 1) in scores and row[e] == scores[e - 1] + before[e - 1]:
            matched[click_index] = True
            for i in clicks[e - 1]:
                matched[i] = True
            e -= 1
    return matched
