"""An episode's per-step scores without a request per step.

After each step the page says how many events the server took from it (page_agent.js reads
window.crm.recordedEvents()); that count is the step's mark. When the episode ends, one
GET /evaluate?timeline=<marks> answers the final scores and the scores after each mark, each what
/evaluate would have answered right after that step (scenarios/timeline.py). Scores are asked after
every step instead where they are needed then (a stop on success, a customer on the line), when
asked for (`every_step`), or once the page is no longer the one the marks count on.
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
    def __init__(self, client, scenario_id: str, every_step: bool):
        self.client, self.scenario_id = client, scenario_id
        self.deferred = not every_step
        self.page: str | None = None  # the page whose events the marks count
        self.steps: list[int | dict] = []  # per step: its mark, or its scores asked right after it

    def after_step(self, page_events: tuple[str, int] | None) -> dict | None:
        """/evaluate's answer after this step, or None: its scores come with the timeline at the end."""
        if self.deferred and page_events is not None and self.page in (None, page_events[0]):
            self.page = page_events[0]
            self.steps.append(page_events[1])
            return None
        self.deferred = False
        answer = self.client.evaluate(self.scenario_id)
        self.steps.append(step_scores(answer))
        return answer

    def at_end(self, last: dict | None) -> tuple[dict, list[dict]]:
        """The final /evaluate answer and every step's scores, in one request for all the marks."""
        marks = [mark for mark in self.steps if isinstance(mark, int)]
        if not marks:
            return last, list(self.steps)
        answer = self.client.evaluate(self.scenario_id, timeline=marks)
        entries = iter(answer.pop("timeline"))
        return answer, [step_scores(next(entries)) if isinstance(mark, int) else mark for mark in self.steps]
