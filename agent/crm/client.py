"""The CRM's scenario endpoints, as a small HTTP client (standard library only).

The client sends the server's operator token (`X-Operator-Token`) when it has one, given or from
CRM_OPERATOR_TOKEN, so that /evaluate answers the gold steps with their values.
"""
from __future__ import annotations

import os
import urllib.error
import urllib.parse

from crm_app.http_client import http_sender

TOKEN_VARIABLE = "CRM_OPERATOR_TOKEN"
URL_VARIABLE = "AIRLINECRM_URL"  # the CRM that task packages (BrowserGym, CUBE) use instead of their own
# What /evaluate's answer says of an episode, as task packages pass it on with the reward.
VERDICT_KEYS = ("success", "task_progress", "num_actions", "state_check", "matched", "said_ok", "verified_first",
                "policy_violations", "transferred", "requests",  # requests: an expert call's, each judged
                "violations")  # an expert call's rules broken (issue 50)


class ServerError(RuntimeError):
    pass


def verdicts(metrics: dict) -> dict:
    """The verdicts of an /evaluate answer (VERDICT_KEYS that it has)."""
    return {key: metrics[key] for key in VERDICT_KEYS if key in metrics}


OPERATOR_TOKEN_HEADER = "X-Operator-Token"


class ScenarioClient:
    """`operator_token` (else CRM_OPERATOR_TOKEN), when there is one, goes with every request: the
    server shows the gold steps' values only to its operator. `modality` (ui, api) is what /evaluate
    scores progress on; None lets the server pick (docs/scenarios.md)."""

    def __init__(self, base_url: str, timeout: float = 30.0, operator_token: str | None = None,
                 modality: str | None = None):
        self.base_url = base_url.rstrip("/")
        self.modality = modality
        token = operator_token or os.environ.get(TOKEN_VARIABLE)
        self._send = http_sender(self.base_url, timeout, {OPERATOR_TOKEN_HEADER: token} if token else None)
        self.is_operator = bool(token)  # whether requests carry an operator token

    def check(self) -> dict:
        """The server's /api/config; ServerError saying so when the server cannot be reached."""
        try:
            return self._get("/api/config")
        except ServerError as error:
            raise ServerError(f"The CRM server at {self.base_url} cannot be used: {error}") from None

    def generate(self, task: str | None = None, seed: int | None = None, suite: str | None = None,
                 ui_variant: str | None = None, customer_variant: str | None = None) -> tuple[dict, dict]:
        """A new scenario (of the server's suite unless `suite` is given; in UI variant `ui_variant`
        and customer variant `customer_variant` when given) with its `gold_actions` and `gold_calls`,
        and its /evaluate answer before any action (where the gold actions come from: the scenario
        answer does not carry them); with the operator token also the bookings it starts from
        (`initial_state`)."""
        scenario = self._get("/generate-random-scenario", task=task, seed=seed, suite=suite, ui_variant=ui_variant,
                             customer_variant=customer_variant,
                             initial_state="1" if self.is_operator else None)
        metrics = self.evaluate(scenario["id"])
        scenario["gold_actions"] = metrics.get("gold_actions", [])
        scenario["gold_calls"] = metrics.get("gold_calls", [])
        return scenario, metrics

    def say(self, scenario_id: str, text: str) -> str:
        """Say `text` to the scenario's customer; the customer's reply. ServerError when the server
        refuses (an empty or too long text, an unknown scenario)."""
        return self.say_answer(scenario_id, text)["reply"]

    def say_answer(self, scenario_id: str, text: str) -> dict:
        """say()'s whole answer: the customer's `reply` and the `lines` the call has stored now."""
        return self._request("POST", "/api/customer/messages", {"text": text}, scenario=scenario_id)

    def transfer(self, scenario_id: str, summary: str) -> str:
        """Transfer the scenario's call to a supervisor with `summary`; the customer's last line.
        ServerError when the server refuses (no summary, a call already transferred)."""
        return self.transfer_answer(scenario_id, summary)["reply"]

    def transfer_answer(self, scenario_id: str, summary: str) -> dict:
        """transfer()'s whole answer: the customer's last line (`reply`) and the call's `lines`."""
        return self._request("POST", "/api/customer/transfer", {"summary": summary}, scenario=scenario_id)

    def evaluate(self, scenario_id: str, timeline: list[int | tuple[int, int]] | None = None) -> dict:
        """/evaluate's answer; with `timeline` (event counts, or on a call (events, lines) pairs),
        also the scores after each (`timeline`)."""
        marks = ",".join(":".join(map(str, mark)) if isinstance(mark, tuple) else str(mark)
                         for mark in timeline) if timeline else None
        return self._get("/evaluate", scenario=scenario_id, modality=self.modality, timeline=marks)

    def activity(self, scenario_id: str) -> dict:
        """The scenario's page events and call lines with the times the server received them
        (GET /scenario-activity, the operator's alone: ServerError without the operator token)."""
        return self._get("/scenario-activity", scenario=scenario_id)

    def _get(self, path: str, **params) -> dict:
        return self._request("GET", path, None, **params)

    def _request(self, method: str, path: str, body: dict | None, **params) -> dict:
        query = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
        try:
            status, answer = self._send(method, path + (f"?{query}" if query else ""), body)
        except urllib.error.URLError as err:
            raise ServerError(f"{method} {path} failed: {err.reason}") from None
        if status >= 400:
            raise ServerError(f"{method} {path} answered {status}: {answer.get('error', answer)}")
        return answer
