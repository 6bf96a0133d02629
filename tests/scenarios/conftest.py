"""Helpers for the scenario tests: make a scenario, play steps into it, score it."""
from __future__ import annotations

import pytest

from scenarios.replay import Replay, client_sender
from tests.conftest import OPERATOR


class Scenarios:
    """A Flask test client seen as a scenario user: generate, play, evaluate, reset."""

    def __init__(self, client):
        self.client = client
        self.send = client_sender(client)

    def generate(self, task: str, seed: int) -> dict:
        response = self.client.get(f"/generate-random-scenario?task={task}&seed={seed}")
        assert response.status_code == 200, response.json
        return response.json

    def gold(self, scenario: dict) -> list[dict]:
        return self.evaluate(scenario)["gold_actions"]

    def play(self, scenario: dict, steps: list[dict], **only) -> Replay:
        """Play `steps` into the scenario: page events and API calls (see Replay for `only`)."""
        return Replay(self.send, scenario["id"], **only).play(steps)

    def evaluate(self, scenario: dict, operator: bool = True, modality: str | None = None) -> dict:
        """The /evaluate answer, in full (with the operator token) unless `operator` is False; in the
        given modality (ui, api), else in the one the server picks."""
        query = f"&modality={modality}" if modality else ""
        response = self.client.get(f"/evaluate?scenario={scenario['id']}{query}", headers=OPERATOR if operator else {})
        assert response.status_code == 200, response.json
        return response.json

    def booking(self, scenario_id: str | None, code: str):
        query = f"?scenario={scenario_id}" if scenario_id else ""
        return self.client.get(f"/api/bookings/{code}{query}")


@pytest.fixture
def scenarios(client) -> Scenarios:
    return Scenarios(client)
