"""`python -m agent run --ui-variant K|random|all`: each variant is a column of its own (label
`-ui<K>`), recorded in every trajectory's settings and run.json, its scenarios made in that variant;
the oracle solves them from the page alone; a variant that does not exist is refused."""
import csv
import json

import pytest

from agent.__main__ import main
from crm_app.ui_variants import VARIANTS, variant_named
from tests.agent.command_line import refusal


def argv(out, server, *extra) -> list[str]:
    return ["run", "--method", "oracle", "--tasks", "TASK_FIND_BOOKING", "--episodes", "1", "--out", str(out),
            "--quiet", "--server", server, *extra]


def run(out, server, *extra):
    return main(argv(out, server, *extra))


@pytest.mark.browser
def test_every_variant_is_a_column_of_its_own_and_the_oracle_solves_it(tmp_path, live_server):
    assert run(tmp_path / "run", live_server, "--ui-variant", "all") == 0
    rows = {row["method"]: row for row in csv.DictReader((tmp_path / "run" / "summary.csv").open())}
    assert sorted(rows) == sorted(f"oracle-ui{variant.number}" for variant in VARIANTS)
    assert all(row["success_mean"] == "1.0" for row in rows.values())
    episode = json.loads((tmp_path / "run" / "oracle-ui4" / "TASK_FIND_BOOKING" / "seed0-trial0.json").read_text())
    assert episode["settings"]["ui_variant"] == "4" and episode["scenario"]["ui_variant"] == 4
    plain = json.loads((tmp_path / "run" / "oracle-ui0" / "TASK_FIND_BOOKING" / "seed0-trial0.json").read_text())
    assert plain["settings"]["ui_variant"] == "0" and plain["scenario"]["ui_variant"] == 0
    record = json.loads((tmp_path / "run" / "run.json").read_text())
    assert "--ui-variant" in record["command"] and record["settings"]["oracle-ui4"]["ui_variant"] == "4"
    assert record["ui_variant"] == "all"


def test_without_the_option_nothing_is_recorded_of_variants(tmp_path, live_server):
    assert run(tmp_path / "run", live_server) == 0
    episode = json.loads((tmp_path / "run" / "oracle" / "TASK_FIND_BOOKING" / "seed0-trial0.json").read_text())
    assert "ui_variant" not in episode["settings"] and "ui_variant" not in episode["scenario"]
    assert "ui_variant" not in json.loads((tmp_path / "run" / "run.json").read_text())


@pytest.mark.parametrize("value", ["7", "some", "-1"])
def test_an_unknown_variant_is_refused(tmp_path, capsys, value):
    status, message = refusal(main, argv(tmp_path / "run", "http://127.0.0.1:9", "--ui-variant", value), capsys)
    assert status == 2 and "--ui-variant takes a number from 0 to 6, random or all" in message


@pytest.mark.browser
def test_summarize_and_report_break_a_random_run_down_by_variant(tmp_path, live_server, capsys):
    assert run(tmp_path / "run", live_server, "--ui-variant", "random", "--episodes", "3") == 0
    drawn = {f"oracle-ui{variant_named('random', seed).number}" for seed in range(3)}
    capsys.readouterr()
    assert main(["summarize", "--out", str(tmp_path / "run"), "--by-variant"]) == 0
    table = capsys.readouterr().out
    rows = list(csv.DictReader((tmp_path / "run" / "summary-by-variant.csv").open()))
    assert {row["method"] for row in rows} == drawn and all(row["success_mean"] == "1.0" for row in rows)
    assert all(label in table for label in drawn) and "oracle-ui-random" not in table
    plain = {row["method"] for row in csv.DictReader((tmp_path / "run" / "summary.csv").open())}
    assert plain == {"oracle-ui-random"}
    assert main(["report", str(tmp_path / "run"), "--by-variant"]) == 0
    index = (tmp_path / "run" / "report" / "index.html").read_text()
    assert all(label in index for label in drawn)  # run.json, shown too, still names the label it ran under
