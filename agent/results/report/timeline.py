"""An episode read step by step against its gold steps (its gold calls, for an episode that worked
the JSON API): which gold steps each step met (from the `matched` list /evaluate answered after
it), where the episode left the gold path, where each request of a call of several was handled, and
the prompts of its model calls."""
from __future__ import annotations

from dataclasses import dataclass

from .loading import Episode


@dataclass(frozen=True)
class StepView:
    number: int  # 1-based
    step: dict  # as written in the trajectory
    met: tuple[int, ...] | None  # gold step numbers first met after this step; None: not recorded
    lost: tuple[int, ...]  # gold step numbers met before but no longer after it

    @property
    def progress(self):
        return (self.step.get("metrics") or {}).get("task_progress")

    @property
    def model_calls(self) -> list[dict]:
        return (self.step.get("policy") or {}).get("model_calls") or []


@dataclass(frozen=True)
class Divergence:
    """Where an episode left the gold path: after `after_step` (0: from the start) it never met
    gold step `missed` again. `at_step` is the first step off the path (None if it stopped there)."""

    after_step: int
    missed: int
    at_step: int | None


def step_views(episode: Episode) -> list[StepView]:
    before = [False] * len(episode.gold)
    views = []
    for number, step in enumerate(episode.steps, 1):
        after = (step.get("metrics") or {}).get("matched")
        if not isinstance(after, list):
            views.append(StepView(number, step, None, ()))
            continue
        met = tuple(i + 1 for i, ok in enumerate(after) if ok and not _at(before, i))
        lost = tuple(i + 1 for i, ok in enumerate(before) if ok and not _at(after, i))
        views.append(StepView(number, step, met, lost))
        before = after
    return views


def gold_views(episode: Episode, views: list[StepView]) -> list[dict]:
    """Each gold step, whether it is met at the end, and the step that met it (last time)."""
    final = episode.metrics.get("matched") or []
    met_at: dict[int, int] = {}
    for view in views:
        for number in view.met or ():
            met_at[number] = view.number
    return [{"number": number, **gold, "met": bool(_at(final, number - 1)), "met_at": met_at.get(number)}
            for number, gold in enumerate(episode.gold, 1)]


def divergence(episode: Episode, views: list[StepView]) -> Divergence | None:
    """None when the episode met every gold step, or when its steps did not record `matched`."""
    prefixes = [_prefix((view.step.get("metrics") or {}).get("matched")) for view in views]
    if not episode.gold or not prefixes or any(p is None for p in prefixes):
        return None
    if prefixes[-1] == len(episode.gold):
        return None
    last_advance = 0
    for number, (earlier, now) in enumerate(zip([0] + prefixes, prefixes), 1):
        if now > earlier:
            last_advance = number
    at_step = last_advance + 1 if last_advance < len(views) else None
    return Divergence(after_step=last_advance, missed=prefixes[-1] + 1, at_step=at_step)


def request_views(episode: Episode, views: list[StepView]) -> list[dict]:
    """Each request of a call of several (the expert suite), as /evaluate judged it at the end, and
    the step after which it was handled right for good (`handled_at`: None when it never was, or
    when the steps did not record `requests_ok`)."""
    requests = episode.metrics.get("requests") or []
    handled_at: dict[int, int | None] = {}
    for view in views:
        oks = (view.step.get("metrics") or {}).get("requests_ok")
        if not isinstance(oks, list):
            continue
        for number, ok in enumerate(oks, 1):
            if ok and handled_at.get(number) is None:
                handled_at[number] = view.number
            elif not ok:
                handled_at[number] = None  # undone later: it counts from the step that made it right again
    return [{"number": number, **request, "handled_at": handled_at.get(number) if request.get("ok") else None}
            for number, request in enumerate(requests, 1)]


def handled_by_step(requests: list[dict]) -> dict[int, list[dict]]:
    """Step number -> the requests handled right for good at that step."""
    marks: dict[int, list[dict]] = {}
    for request in requests:
        if request["handled_at"] is not None:
            marks.setdefault(request["handled_at"], []).append(request)
    return marks


def system_prompts(episode: Episode) -> dict[str, str]:
    """System prompt id -> text, as the steps that first used them recorded (agent/policies/model.py)."""
    found: dict[str, str] = {}
    for step in episode.steps:
        found.update((step.get("policy") or {}).get("system_prompts") or {})
    return found


def _prefix(matched) -> int | None:
    """How many gold steps are met in order from the first."""
    if not isinstance(matched, list):
        return None
    count = 0
    for ok in matched:
        if not ok:
            break
        count += 1
    return count


def _at(values: list, index: int) -> bool:
    return index < len(values) and bool(values[index])
