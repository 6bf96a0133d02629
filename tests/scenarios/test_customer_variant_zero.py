"""Customer variant 0 is byte-for-byte the caller of before the customer variants (issue 45): for
every hard task and seeds 0 to 2, the scenario (the operator's view), the customer's replies to the
gold lines and /evaluate's answer after them, as the code answered before the variants were added
(data/customer_variant_zero.jsonl, one line per scenario; ids left out).

    CRM_WRITE_SNAPSHOT=1 pytest tests/scenarios/test_customer_variant_zero.py   # writes the file anew"""
import json
import os
from pathlib import Path

import pytest

from scenarios.app import create_app
from scenarios.tasks import HARD_TASKS
from tests.conftest import OPERATOR, TEST_CONFIG
from tests.scenarios.hard_calls import play_gold

BEFORE = Path(__file__).resolve().parent / "data" / "customer_variant_zero.jsonl"
SEEDS = range(3)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("variant-zero")
    app = create_app({**TEST_CONFIG, "DATABASE_URL": f"sqlite:///{folder / 'crm.db'}", "INSTANCE_PATH": str(folder)})
    return app.test_client()


def answers(client, task: str, seed: int, query: str = "") -> dict:
    """The scenario as made, the call the gold lines make and the verdict after it."""
    made = client.get(f"/generate-random-scenario?suite=hard&task={task}&seed={seed}{query}", headers=OPERATOR).json
    verdict = play_gold(client, made)
    call = client.get(f"/api/customer/messages?scenario={made['id']}").json
    verdict.pop("id")
    scenario = {key: value for key, value in made.items() if key not in ("id", "url")}
    return {"scenario": scenario, "call": call, "evaluate": verdict}


def test_variant_zero_answers_as_the_caller_before_the_variants(client):
    now = [answers(client, task, seed) for task in HARD_TASKS for seed in SEEDS]
    if os.environ.get("CRM_WRITE_SNAPSHOT"):
        BEFORE.write_text("".join(json.dumps(entry, sort_keys=True) + "\n" for entry in now))
    before = [json.loads(line) for line in BEFORE.read_text().splitlines()]
    assert len(before) == len(HARD_TASKS) * len(SEEDS)
    for old, new in zip(before, now):
        assert json.dumps(new, sort_keys=True) == json.dumps(old, sort_keys=True), \
            (old["scenario"]["scenario"], old["scenario"]["seed"])
