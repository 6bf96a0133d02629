"""An episode's per-step scores without a request per step.

After each step the page says how many events the server took from it (page_agent.js reads
window.crm.recordedEvents()); that count is the step's mark. With a customer on the line the mark
also counts the rows the call has stored (its lines and an end mark: "events:lines"), which the
answers of SAY and TRANSFER give, and on the page channel the page (window.crm.callLines()). When
the episode ends, one GET /evaluate?timeline=<marks> answers the final scores and the scores after
each mark, each what /evaluate would have answered right after that step (scenarios/timeline.py).
Scores are asked after every step instead where they are needed then (a stop on success), when
asked for (`every_step`), or once a step's mark is not known (the page is no longer the one the
marks count on, or a call's line count is unknown).
"""
from __future__ import annotations

from scenarios.timeline import STEP_SCORES


def step_scores(answer: dict) -> dict:
    """What a trajectory keeps of a step's /evaluate answer (or of a timeline entry); for a call of
    several requests also which of them were handled right by then (`requests_ok`), so that the
    report can mark the step where each was handled."""
    scores = {key: answer.get(key) for key in STEP_SCORES}
    if answer.get("requests") is not None:
        scores["requests_ok"] = [bool(request.get("ok")) for request in answer["requests"]]
    return scores


class EpisodeProgress:
    def __init__(self, client, scenario_id: str, every_step: bool, call: bool = False):
        self.client, self.scenario_id = client, scenario_id
        self.deferred = not every_step
        self.call = call  # a customer on the line: each mark also counts the call's lines
        self.page: str | None = None  # the page whose events the marks count
        self.steps: list[int | tuple[int, int] | dict] = []  # per step: its mark, or its scores asked right after it

    def after_step(self, page_events: tuple[str, int] | None, lines: int | None = None) -> dict | None:
        """/evaluate's answer after this step, or None: its scores come with the timeline at the end.
        `lines`: the rows the call has stored after the step (a call's marks need it)."""
        if (self.deferred and page_events is not None and self.page in (None, page_events[0])
                and (lines is not None or not self.call)):
            self.page = page_events[0]
            self.steps.append((page_events[1], lines) if self.call else page_events[1])
            return None
        self.deferred = False
        answer = self.client.evaluate(self.scenario_id)
        self.steps.append(step_scores(answer))
        return answer

    def at_end(self, last: dict | None) -> tuple[dict, list[dict]]:
        """The final /evaluate answer and every step's scores, in one request for all the marks."""
        marks = [mark for mark in self.steps if not isinstance(mark, dict)]
        if not marks:
            return last, list(self.steps)
        answer = self.client.evaluate(self.scenario_id, timeline=marks)
        entries = iter(answer.pop("timeline"))
        return answer, [mark if isinstance(mark, dict) else step_scores(next(entries)) for mark in self.steps]
