"""UI variants on the scenario routes (crm_app/ui_variants.py): ?ui_variant=K or random is recorded
with the scenario, kept by a reset and shown by its page; variant 0 (the default) changes nothing
but the scenario's saying it was asked for; /api/config lists the variants; a bad value is a 400."""
import re
from pathlib import Path

import pytest
from sqlalchemy import text

from crm_app.ui_variants import VARIANTS
from crm_app.ui_variants.names import renamed_class
from scenarios.app import create_app
from tests.conftest import TEST_CONFIG
from tests.databases import dispose

GENERATE = "/generate-random-scenario?task=TASK_FIND_BOOKING&seed=3"


def page(client, scenario_id: str) -> str:
    return client.get(f"/?scenario={scenario_id}").get_data(as_text=True)


def test_a_variant_is_recorded_kept_by_a_reset_and_shown_by_the_page(client):
    made = client.get(f"{GENERATE}&ui_variant=3").json
    assert made["ui_variant"] == 3
    classes = " ".join(renamed_class(3, name) for name in ("theme-compact", "nav-side", "search-panel"))
    assert f'data-ui-variant="3" class="{classes}">' in page(client, made["id"])
    assert client.get(f"/reset-scenario?scenario={made['id']}").json["ui_variant"] == 3
    config = client.get(f"/api/config?scenario={made['id']}").json
    assert config["ui_variant"] == 3 and [v["id"] for v in config["ui_variants"]] == list(range(len(VARIANTS)))
    assert len(VARIANTS) >= 7 and all(v["description"] for v in config["ui_variants"])


def test_variant_0_is_the_page_and_the_scenario_as_before_and_says_so_when_asked(client):
    plain, empty = client.get(GENERATE).json, client.get(f"{GENERATE}&ui_variant=").json
    zero = client.get(f"{GENERATE}&ui_variant=0").json
    assert "ui_variant" not in plain and "ui_variant" not in empty and zero["ui_variant"] == 0
    assert client.get(f"/reset-scenario?scenario={zero['id']}").json["ui_variant"] == 0
    assert "ui_variant" not in client.get(f"/reset-scenario?scenario={plain['id']}").json
    assert {k: v for k, v in plain.items() if k not in ("id", "url")} == \
        {k: v for k, v in zero.items() if k not in ("id", "url", "ui_variant")}
    shown = page(client, zero["id"]).replace(zero["id"], "ID")
    assert "data-ui-variant" not in shown and 'class="theme-' not in shown
    assert shown == page(client, plain["id"]).replace(plain["id"], "ID")


def test_random_draws_the_variant_from_the_seed(client):
    drawn = [client.get(f"/generate-random-scenario?task=TASK_FIND_FLIGHT&seed={seed}&ui_variant=random").json
             .get("ui_variant", 0) for seed in range(30)]
    again = [client.get(f"/generate-random-scenario?task=TASK_FIND_FLIGHT&seed={seed}&ui_variant=RANDOM").json
             .get("ui_variant", 0) for seed in range(30)]
    assert drawn == again and len(set(drawn)) >= 4


@pytest.mark.parametrize("value", ["7", "-1", "abc", "1.5", "9999"])
def test_an_unknown_variant_is_refused_and_nothing_is_made(client, value):
    answer = client.get(f"{GENERATE}&ui_variant={value}")
    assert answer.status_code == 400 and re.match(r"ui_variant must be a number from 0 to 6 or 'random'",
                                                  answer.json["error"])


def test_the_same_episode_scores_the_same_in_every_variant(client):
    results = []
    for number in range(len(VARIANTS)):
        made = client.get(f"{GENERATE}&ui_variant={number}").json
        code = made["details"]["confirmation-code"]
        assert client.get(f"/api/bookings/{code}?scenario={made['id']}").status_code == 200
        result = client.get(f"/evaluate?scenario={made['id']}").json
        results.append({k: v for k, v in result.items() if k != "id"})
    assert all(result == results[0] for result in results) and results[0]["success"] == 1


BEFORE = Path(__file__).parent / "data" / "page_before_ui_variants"  # the pages as they were before variants


@pytest.mark.parametrize("suite, task", [("full", "TASK_BOOK_FLIGHT"), ("paper", "TASK_UPDATE_PASSENGER_DETAILS"),
                                         ("hard", "TASK_POLICY_CHANGE")])
def test_variant_0_is_byte_for_byte_the_page_before_variants(client, suite, task):
    made = client.get(f"/generate-random-scenario?task={task}&seed=3&suite={suite}&ui_variant=0").json
    assert page(client, made["id"]).replace(made["id"], "ID") == (BEFORE / f"{suite}.html").read_text()
    assert client.get("/").get_data(as_text=True) == (BEFORE / "sandbox.html").read_text()


@pytest.mark.database_independent
def test_a_database_made_before_variant_0_was_recorded_keeps_what_its_scenarios_said(tmp_path):
    config = {**TEST_CONFIG, "DATABASE_URL": f"sqlite:///{tmp_path / 'old.db'}", "INSTANCE_PATH": str(tmp_path)}
    app = create_app(config)
    three, plain = (app.test_client().get(GENERATE + asked).json for asked in ("&ui_variant=3", ""))
    with app.extensions["engine"].begin() as connection:
        connection.execute(text("ALTER TABLE scenarios DROP COLUMN ui_variant_asked"))  # as an older version made it
    dispose(app)
    again = create_app(config)
    try:
        client = again.test_client()
        assert client.get(f"/reset-scenario?scenario={three['id']}").json["ui_variant"] == 3
        assert "ui_variant" not in client.get(f"/reset-scenario?scenario={plain['id']}").json
        assert client.get(f"{GENERATE}&ui_variant=0").json["ui_variant"] == 0
    finally:
        dispose(again)


def test_the_config_lists_the_customer_variants_as_it_lists_the_ui_variants(client):
    """Every caller a scenario may ask for, by number, name and description; not which one a
    scenario has (that is the operator's to know)."""
    made = client.get("/generate-random-scenario?suite=hard&task=TASK_POLICY_CHANGE&seed=0&customer_variant=5").json
    config = client.get(f"/api/config?scenario={made['id']}").json
    assert [(v["id"], v["name"]) for v in config["customer_variants"]] == \
        [(0, "plain"), (1, "terse"), (2, "vague"), (3, "talkative"), (4, "unprepared"), (5, "impatient")]
    assert all(v["description"] for v in config["customer_variants"]) and "customer_variant" not in config
    assert client.get("/api/config").json["customer_variants"] == config["customer_variants"]
