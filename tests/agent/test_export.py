"""`python -m agent export`: scenarios of every task of every suite as a Parquet dataset with its card,
loaded by pyarrow and by Hugging Face `datasets`; the same command writes the same bytes; `export
check` plays the rows again to their stored scores; `export run` takes a run's trajectories, which
score as its summary.csv says."""
import csv
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

# `datasets` reads files only: no hub, and its caches in a folder of the test session's own
os.environ.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_HOME=tempfile.mkdtemp(prefix="hf-home-"))

import datasets  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402

from agent.__main__ import main  # noqa: E402
from agent.export.reading import read_episodes  # noqa: E402
from scenarios.tasks import HARD_TASKS, TASK_NAMES  # noqa: E402
from tests.agent.command_line import refusal  # noqa: E402

SUITE_TASKS = {"full": set(TASK_NAMES), "paper": set(TASK_NAMES) - {"TASK_MODIFY_FLIGHT"}, "hard": set(HARD_TASKS)}
SMALL = ("--suite", "full", "--tasks", "TASK_BOOK_FLIGHT", "--episodes", "2", "--seed", "3")


def export(out: Path, *options: str) -> int:
    return main(["export", "scenarios", *options, "--out", str(out), "--quiet"])


def digests(folder: Path) -> dict[str, str]:
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """One scenario of every task of the full, paper and hard suites (the expert suite's hundred-odd
    templates: test_the_expert_suite_exports_the_templates_of_a_split)."""
    out = tmp_path_factory.mktemp("export") / "dataset"
    assert export(out, "--suite", "full,paper,hard", "--episodes", "1", "--seed", "7", "--modes", "elements") == 0
    return out


@pytest.fixture(scope="module")
def with_screenshots(tmp_path_factory) -> Path:
    """Two tasks with a screenshot after every step (a recorded episode takes a page of its own, so
    screenshots are asked for here only, not of every task)."""
    out = tmp_path_factory.mktemp("screenshots") / "dataset"
    assert export(out, "--suite", "full", "--tasks", "TASK_FIND_FLIGHT,TASK_CANCEL_FLIGHT", "--episodes", "1",
                  "--seed", "7", "--modes", "elements,screenshot") == 0
    return out


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("small") / "dataset"
    assert export(out, *SMALL) == 0
    return out


@pytest.mark.browser
def test_every_task_of_every_suite_loads_with_pyarrow_and_datasets(exported, tmp_path):
    files = sorted((exported / "data").rglob("*.parquet"))
    assert {(path.parent.name, path.stem) for path in files} == {
        (suite, task) for suite, tasks in SUITE_TASKS.items() for task in tasks}
    table = pq.read_table(exported / "data")
    assert table.num_rows == len(files) and set(table.column("success").to_pylist()) == {1}
    loaded = datasets.load_dataset("parquet", data_dir=str(exported), cache_dir=str(tmp_path / "cache"))["train"]
    assert loaded.num_rows == len(files)
    row = next(r for r in loaded if r["task"] == "TASK_BOOK_FLIGHT")
    assert row["suite"] == "full" and row["seed"] == 7 and row["steps"][0]["observation"].startswith("<")
    assert json.loads(row["gold_actions"])[0]["target"] and json.loads(row["gold_calls"])
    assert row["steps"][-1]["task_progress"] == 1.0 and json.loads(row["evaluation"])["success"] == 1
    cancel = next(r for r in loaded if r["task"] == "TASK_CANCEL_FLIGHT")
    booked = json.loads(cancel["initial_state"])[json.loads(cancel["details"])["confirmation-code"]]
    assert booked["status"] == "Confirmed" and booked["passenger"]["last_name"]
    card = (exported / "README.md").read_text()
    assert card.startswith("---\nlicense: other\n") and "- config_name: hard" in card
    assert "    path: data/full/TASK_BOOK_FLIGHT.parquet" in card and "| `gold_calls` |" in card


@pytest.mark.browser
def test_the_same_export_is_byte_identical(small, tmp_path):
    assert export(tmp_path / "again", *SMALL) == 0
    assert digests(tmp_path / "again") == digests(small)
    evaluations = pq.read_table(small / "data", columns=["evaluation"]).column("evaluation").to_pylist()
    assert any("****1111" in text for text in evaluations) and not any("hmac:" in text for text in evaluations)


@pytest.mark.browser
def test_screenshots_are_an_image_column(with_screenshots, tmp_path):
    rows = pq.read_table(with_screenshots / "data" / "full", columns=["steps"]).to_pylist()
    shots = [step["screenshot_after"] for row in rows for step in row["steps"]]
    assert len(rows) == 2 and shots and all(shot and shot["bytes"][:2] == b"\xff\xd8" for shot in shots)  # JPEGs
    card = (with_screenshots / "README.md").read_text()
    assert "  - name: screenshot_after\n      dtype: image" in card
    loaded = datasets.load_dataset("parquet", data_dir=str(with_screenshots), cache_dir=str(tmp_path / "cache"))
    assert loaded["train"].num_rows == 2


@pytest.mark.browser
def test_every_row_replays_its_gold_calls_to_its_stored_score(exported, capsys):
    rows = pq.read_table(exported / "data").num_rows
    assert main(["export", "check", str(exported), "--quiet"]) == 0
    assert f"All {rows} exported episodes check out (their gold paths played over the API)." in capsys.readouterr().out


@pytest.mark.browser
def test_the_rows_own_actions_play_again_to_their_stored_scores(small, capsys):
    assert main(["export", "check", str(small), "--browser", "--quiet"]) == 0
    assert "All 2 exported episodes check out (their own actions played through the browser)." in capsys.readouterr().out


def rewrite(folder: Path, task: str, change) -> None:
    """The first row of the task's file changed by `change` (a function of the row)."""
    path = folder / "data" / "full" / f"{task}.parquet"
    rows = pq.read_table(path).to_pylist()
    pq.write_table(pa.Table.from_pylist([change(rows[0]), *rows[1:]], schema=pq.read_schema(path)), path)


@pytest.mark.browser
def test_a_row_whose_score_was_altered_is_reported_both_ways(small, tmp_path, capsys):
    altered = tmp_path / "altered"
    shutil.copytree(small, altered)
    rewrite(altered, "TASK_BOOK_FLIGHT", lambda row: {**row, "success": 0})
    assert main(["export", "check", str(altered), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "1 of 2 exported episodes do not check out" in out
    assert "TASK_BOOK_FLIGHT seed 3: the oracle's episode stored {'success': 0, 'task_progress': 1.0}" in out
    assert main(["export", "check", str(altered), "--browser", "--quiet"]) == 1
    assert "TASK_BOOK_FLIGHT seed 3: stored {'success': 0, 'task_progress': 1.0}, played now {'success': 1" in (
        capsys.readouterr().out)


@pytest.mark.browser
def test_an_episode_that_fell_short_is_confirmed_by_its_own_actions(small, tmp_path, capsys):
    """A row of another method that stopped halfway: its own actions score what it stored."""
    cut = tmp_path / "cut"
    shutil.copytree(small, cut)

    def halfway(row):
        steps = row["steps"][:len(row["steps"]) // 2]
        return {**row, "method": "halfway", "steps": steps, "success": steps[-1]["success"],
                "task_progress": steps[-1]["task_progress"]}

    rewrite(cut, "TASK_BOOK_FLIGHT", halfway)
    stored = pq.read_table(cut / "data" / "full" / "TASK_BOOK_FLIGHT.parquet").to_pylist()[0]
    assert stored["success"] == 0 and 0 < stored["task_progress"] < 1
    assert main(["export", "check", str(cut), "--browser", "--quiet"]) == 0
    assert main(["export", "check", str(cut), "--quiet"]) == 0  # its scenario's gold path still scores 1
    capsys.readouterr()


@pytest.mark.browser
def test_an_exported_run_scores_as_its_summary(tmp_path, live_server):
    run_dir = tmp_path / "run"
    assert main(["run", "--method", "oracle", "--tasks", "TASK_FIND_BOOKING", "--episodes", "3", "--out", str(run_dir),
                 "--quiet", "--no-report", "--server", live_server]) == 0
    assert main(["export", "run", str(run_dir), "--out", str(tmp_path / "dataset")]) == 0
    rows = pq.read_table(tmp_path / "dataset" / "data").to_pylist()
    summary = {row["task"]: float(row["success_mean"]) for row in csv.DictReader((run_dir / "summary.csv").open())}
    by_task = {task: [r["success"] for r in rows if r["task"] == task] for task in summary}
    by_task["all tasks"] = [r["success"] for r in rows]
    assert {task: sum(found) / len(found) for task, found in by_task.items()} == summary
    assert '"command"' in (tmp_path / "dataset" / "README.md").read_text()  # run.json's provenance


def test_bad_input_is_refused_with_a_message(tmp_path, capsys):
    status, message = refusal(main, ["export", "scenarios", "--suite", "nope", "--out", str(tmp_path)], capsys)
    assert status == 2 and "--suite takes all or suites" in message
    status, message = refusal(main, ["export", "check", str(tmp_path)], capsys)
    assert status == 2 and "holds no exported dataset" in message
    status, message = refusal(main, ["export", "run", str(tmp_path / "missing"), "--out", str(tmp_path)], capsys)
    assert status == 2 and "no such run folder" in message


@pytest.mark.browser
def test_other_observation_modes_are_kept_per_step_as_json(tmp_path):
    out = tmp_path / "modes"
    assert export(out, "--tasks", "TASK_FIND_BOOKING", "--episodes", "1", "--modes", "elements,axtree,html") == 0
    steps = pq.read_table(out / "data", columns=["steps"]).to_pylist()[0]["steps"]
    modes = [json.loads(step["modes"]) for step in steps]
    assert all(set(found) == {"axtree", "html"} for found in modes)
    assert all(found["html"].startswith("<body") and "agent-id=" in found["html"] for found in modes)
    assert all(found["axtree"].strip() for found in modes)
    assert steps[0]["screenshot_after"] is None


@pytest.mark.browser
def test_the_hard_suite_exported_through_the_call_panel_records_its_channel(tmp_path, capsys):
    out = tmp_path / "page"
    assert export(out, "--suite", "hard", "--tasks", "TASK_POLICY_CANCEL", "--episodes", "1", "--channel", "page") == 0
    (row,) = pq.read_table(out / "data").to_pylist()
    assert (row["channel"], row["success"]) == ("page", 1)
    assert json.loads(row["conversation"])[0]["text"] not in row["instruction"]  # the briefing alone
    assert not any(step["action"].startswith(("SAY", "TRANSFER")) for step in row["steps"])
    assert "--channel page" in (out / "README.md").read_text()
    assert [episode.settings["channel"] for episode in read_episodes(out)] == ["page"]  # as compare reads it
    assert main(["export", "check", str(out), "--browser", "--quiet"]) == 0  # its actions replayed on the page channel
    status, message = refusal(main, ["export", "scenarios", "--suite", "full", "--channel", "page", "--out",
                                     str(tmp_path / "full")], capsys)
    assert status == 2 and "--channel is for the suites with a customer on the line: --suite hard" in message


@pytest.mark.browser
def test_the_expert_suite_exports_the_templates_of_a_split(tmp_path, capfd):
    out = tmp_path / "expert"
    assert export(out, "--suite", "expert", "--split", "test", "--tasks", "EXPERT_CHANGE_STATUS,EXPERT_CANCEL_QUESTION",
                  "--episodes", "1") == 0
    rows = pq.read_table(out / "data").to_pylist()
    assert sorted((row["suite"], row["task"], row["success"]) for row in rows) == [
        ("expert", "EXPERT_CANCEL_QUESTION", 1), ("expert", "EXPERT_CHANGE_STATUS", 1)]
    assert "--split test" in (out / "README.md").read_text()
    # a template of the test split asked of the train split: the run refuses it, and so the export
    assert export(tmp_path / "wrong", "--suite", "expert", "--split", "train", "--tasks", "EXPERT_CHANGE_STATUS") == 2
    assert "not in the train split of the expert suite" in capfd.readouterr().err
