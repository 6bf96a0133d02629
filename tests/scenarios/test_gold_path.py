"""scenarios/gold_path.py: a scenario's gold calls (and, on a call, its gold lines) played over the
JSON API score success 1 and progress 1.0 in the api modality, on every task of every suite."""
from __future__ import annotations

import pytest

from scenarios.gold_path import GoldPath
from scenarios.replay import client_sender
from scenarios.suites import SUITES
from tests.conftest import OPERATOR

# The expert suite's hundred-odd templates play on one database only: what they add is composition,
# not storage (the PostgreSQL pass plays the other suites' tasks and a sample of the expert's).
CASES = [pytest.param(suite.name, task.name, marks=[pytest.mark.database_independent] * (
    suite.name == "expert" and i % 11 > 0)) for suite in SUITES.values() for i, task in enumerate(suite.tasks)]


@pytest.mark.parametrize("suite, task", CASES)
def test_the_gold_path_over_the_api_scores_one(client, suite, task):
    for seed in (21, 22):
        scenario = client.get(f"/generate-random-scenario?suite={suite}&task={task}&seed={seed}", headers=OPERATOR).json
        gold = client.get(f"/evaluate?scenario={scenario['id']}", headers=OPERATOR).json
        answers = GoldPath(client_sender(client), {**scenario, **{k: gold[k] for k in ("gold_actions", "gold_calls")}}).play()
        assert answers and all(status in (200, 201) for _, status in answers), answers
        scored = client.get(f"/evaluate?scenario={scenario['id']}&modality=api", headers=OPERATOR).json
        assert (scored["success"], scored["task_progress"]) == (1, 1.0), (suite, task, seed, scored["state_check"])
