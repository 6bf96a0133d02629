"""A run folder written before trajectories and run.json became typed records (by commit 061ed1b:
tests/agent/data/run_before_layers/, two oracle episodes) reads as it did: its files read back to
what they hold, it summarizes to the table it had, resumes with nothing left to play, and reports."""
import csv
import json
import shutil
from pathlib import Path

import pytest

from agent.__main__ import main
from agent.episode.run_folder import trajectory_paths
from agent.episode.trajectory import read_trajectory
from agent.experiment.run_record import RunRecord
from agent.experiment.runner import plan, prepare

OLD = Path(__file__).parent / "data" / "run_before_layers"


@pytest.fixture
def old_run(tmp_path) -> Path:
    return shutil.copytree(OLD, tmp_path / "run")


def test_its_files_read_back_to_what_they_hold():
    paths = trajectory_paths(OLD)
    assert len(paths) == 2
    for path in paths:
        assert read_trajectory(path).to_json() == json.loads(path.read_text())
    record = json.loads((OLD / "run.json").read_text())
    assert RunRecord.from_json(record).to_json() == record


def test_it_summarizes_to_the_table_it_had(old_run, capsys):
    before = list(csv.DictReader((old_run / "summary.csv").open()))
    (old_run / "summary.csv").unlink()
    assert main(["summarize", "--out", str(old_run)]) == 0
    *after, total = csv.DictReader((old_run / "summary.csv").open())
    assert [{key: row[key] for key in before[0]} for row in after] == before  # columns added since keep their values
    assert [(row["success_low"], row["success_high"], row["interval"]) for row in after] == [("0.2065", "1.0", "wilson")] * 2
    # the total over both tasks, added since: Wilson of 2 of 2 is 2 / (2 + 1.959964^2) = 2 / 5.841459 = 0.3424
    assert (total["task"], total["episodes"], total["success_low"], total["success_high"]) == (
        "all tasks", "2", "0.3424", "1.0")
    assert "TASK_FIND_BOOKING" in capsys.readouterr().out


def test_it_resumes_with_nothing_left_to_play(old_run):
    record = RunRecord.from_json(json.loads((old_run / "run.json").read_text()))
    specs = plan("oracle", record.tasks, len(record.seeds))
    assert prepare(specs, old_run, {"max_steps": record.max_steps}).todo == []


def test_it_reports(old_run):
    assert main(["report", str(old_run)]) == 0
    assert len(list((old_run / "report" / "episodes" / "oracle").glob("*/*.html"))) == 2
