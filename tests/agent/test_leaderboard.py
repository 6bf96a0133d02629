"""`python -m agent leaderboard`: three runs (the oracle, a scripted wrong agent, the oracle on
other seeds) ranked on a page read back in Chromium; an exported dataset ranks like its run; the
comparison page of `compare --out`."""
import csv
import json
import os
import shutil
import time
from pathlib import Path
from urllib.parse import unquote

import pytest

from agent.__main__ import main
from agent.results.leaderboard import CSV_FIELDS
from agent.results.summary import read_episodes_csv
from tests.agent.synthetic_runs import write_outcomes

TASKS = ("TASK_FIND_FLIGHT", "TASK_CANCEL_FLIGHT")
USAGE = {"prompt_tokens": 1000, "completion_tokens": 100, "calls": 2}


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    root = tmp_path_factory.mktemp("leaderboard")
    oracle, wrong, other = root / "oracle", root / "wrong", root / "oracle-other-seeds"
    write_outcomes(oracle, "oracle", {(task, seed, 0): 1 for task in TASKS for seed in range(20)})
    # the scripted wrong agent finds two flights of twenty and cancels none
    write_outcomes(wrong, "flat-zero-shot", {(task, seed, 0): int(task == TASKS[0] and seed < 2)
                                             for task in TASKS for seed in range(20)}, usage=USAGE)
    write_outcomes(other, "oracle", {(task, seed, 0): 1 for task in TASKS for seed in range(100, 120)})
    (wrong / "run.json").write_text(json.dumps({"model": "scripted-model", "git_commit": "0123abc",
                                                "settings": {"flat-zero-shot": {"model": "scripted-model"}}}))
    for run in (oracle, wrong, other):
        assert main(["report", str(run)]) == 0
    prices = root / "prices.json"
    prices.write_text(json.dumps({"scripted-model": {"prompt": 1.0, "completion": 2.0}}))
    out = root / "board"
    assert main(["leaderboard", str(wrong), str(other), str(oracle), "--out", str(out), "--prices", str(prices)]) == 0
    return {"root": root, "out": out, "runs": (oracle, wrong, other)}


def test_the_table_ranks_with_intervals_and_marks_what_the_leader_cannot_be_told_from(board):
    rows = list(csv.DictReader((board["out"] / "leaderboard.csv").open()))
    oracle, wrong, other = map(str, board["runs"])
    assert [(r["rank"], r["run"], r["success"], r["success_low"], r["success_high"], r["separable"]) for r in rows] == [
        ("1", oracle, "1.0", "0.9124", "1.0", "leader"), ("2", other, "1.0", "0.9124", "1.0", "no"),
        ("3", wrong, "0.05", "0.0138", "0.165", "yes")]
    assert (rows[2]["tokens"], rows[2]["cost"], rows[2]["model"], rows[2]["git_commit"]) == (
        "44000", "0.048", "scripted-model", "0123abc")  # 40 x (1000 x $1 + 100 x $2) / 1e6


def test_an_exported_dataset_ranks_like_its_run(board, capsys):
    oracle = board["runs"][0]
    dataset = board["root"] / "oracle-dataset"
    assert main(["export", "run", str(oracle), "--out", str(dataset)]) == 0
    assert main(["leaderboard", str(dataset), str(board["runs"][1]), "--out", str(board["root"] / "shared")]) == 0
    rows = list(csv.DictReader((board["root"] / "shared" / "leaderboard.csv").open()))
    assert [(r["run"], r["episodes"], r["success_low"], r["separable"]) for r in rows] == [
        (str(dataset), "40", "0.9124", "leader"), (str(board["runs"][1]), "40", "0.0138", "yes")]


@pytest.mark.browser
def test_the_page_read_back_in_chromium(board, page):
    page.goto((board["out"] / "index.html").resolve().as_uri())
    rows = page.locator("#leaderboard > tbody > tr")
    oracle, wrong, other = map(str, board["runs"])
    assert rows.evaluate_all("rows => rows.map(r => r.dataset.run)") == [oracle, other, wrong]
    assert page.locator("#leaderboard > tbody > tr > td.success").all_inner_texts() == ["1.00 [0.91, 1.00]", "1.00 [0.91, 1.00]", "0.05 [0.01, 0.17]"]
    assert page.locator("#leaderboard > tbody > tr > td.mark").all_inner_texts() == ["leader", "not separable", "separable"]
    assert "$0.0480" in rows.nth(2).inner_text() and "scripted-model" in rows.nth(2).inner_text()
    headers = page.locator("#leaderboard thead th").all_inner_texts()
    assert headers[5:8] == ["full suite", "TASK_FIND_FLIGHT", "TASK_CANCEL_FLIGHT"]
    assert "seconds per task" not in headers  # only where a person played
    assert rows.nth(2).locator("> td").nth(5).inner_text() == "0.10 [0.03, 0.30]"  # 2 of 20 flights found
    links = page.locator("#leaderboard > tbody > tr > th.run a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    for run, href in zip((oracle, other, wrong), links):
        assert Path(unquote(href)).parts[-2:] == ("report", "index.html")
        page.goto((board["out"] / unquote(href)).resolve().as_uri())
        assert page.locator("h1").inner_text() == f"Run {Path(run).name}"
        page.go_back()


@pytest.mark.browser
def test_the_comparison_page_read_back_in_chromium(board, page, tmp_path):
    oracle, wrong, _ = board["runs"]
    assert main(["compare", str(oracle), str(wrong), "--out", str(tmp_path)]) == 0
    page.goto((tmp_path / "comparison.html").resolve().as_uri())
    cancel = page.locator("table.comparison-table tbody tr", has_text="TASK_CANCEL_FLIGHT").locator("td")
    # pairs, A, B, A - B, McNemar p (2 / 2^20), won by A only
    assert cancel.all_inner_texts()[:6] == ["20", "1.00", "0.00", "+1.00 [1.00, 1.00]", "1.9e-06", "20"]
    assert "0 only in A, 0 only in B" in page.locator("p.pairing").inner_text()


def test_a_summarized_run_is_read_from_its_episodes_csv_while_it_is_up_to_date(board, tmp_path, capsys):
    run = shutil.copytree(board["runs"][1], tmp_path / "wrong")
    assert main(["summarize", "--out", str(run)]) == 0
    from_csv = read_episodes_csv(run)
    assert len(from_csv) == 40 and sum(t.usage["prompt_tokens"] for t in from_csv) == 40_000
    assert main(["leaderboard", str(run), "--out", str(tmp_path / "board")]) == 0
    (row,) = csv.DictReader((tmp_path / "board" / "leaderboard.csv").open())
    assert (row["success"], row["success_low"], row["success_high"], row["tokens"]) == ("0.05", "0.0138", "0.165", "44000")
    later = run / "flat-zero-shot" / "TASK_CANCEL_FLIGHT" / "seed0-trial0.json"
    os.utime(later, (time.time() + 5, time.time() + 5))  # a trajectory written after the summary
    assert read_episodes_csv(run) is None


SIX_TASKS = ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
             "TASK_UPDATE_PASSENGER_DETAILS", "TASK_MODIFY_FLIGHT")


@pytest.fixture(scope="module")
def uneven_board(tmp_path_factory):
    """One task played twice, both won, against two runs of all six tasks (30 episodes each)."""
    root = tmp_path_factory.mktemp("uneven")
    one, six, weaker = root / "one-task", root / "six-tasks", root / "six-tasks-weaker"
    write_outcomes(one, "oracle", {("TASK_FIND_FLIGHT", seed, 0): 1 for seed in range(2)})
    write_outcomes(six, "oracle", {(task, seed, 0): int(seed < 4) for task in SIX_TASKS for seed in range(5)})
    write_outcomes(weaker, "flat-zero-shot", {(task, seed, 0): int(seed < 1) for task in SIX_TASKS for seed in range(5)})
    out = root / "board"
    assert main(["leaderboard", str(one), str(weaker), str(six), "--out", str(out)]) == 0
    return {"out": out, "runs": tuple(map(str, (one, six, weaker)))}


def test_runs_of_fewer_tasks_are_ranked_apart_in_the_table(uneven_board, capsys):
    rows = list(csv.DictReader((uneven_board["out"] / "leaderboard.csv").open()))
    one, six, weaker = uneven_board["runs"]
    assert [(r["rank"], r["run"], r["episodes"], r["coverage"], r["coverage_rank"], r["separable"]) for r in rows] == [
        ("1", six, "30", "all 6 tasks", "1", "leader"), ("2", weaker, "30", "all 6 tasks", "2", "yes"),
        ("3", one, "2", "1 of 6 tasks: TASK_FIND_FLIGHT", "1", "leader")]
    assert list(rows[0])[:16] == CSV_FIELDS[:16]  # the columns as before, the new ones after them


def test_a_run_in_fewer_ui_variants_is_ranked_apart(tmp_path, capsys):
    both, first = tmp_path / "both-variants", tmp_path / "variant-0"
    for ui_variant in (0, 1):
        write_outcomes(both, "oracle", {(task, 3 * ui_variant + seed, 0): 1 for task in TASKS for seed in range(3)},
                       ui_variant=ui_variant)
    write_outcomes(first, "oracle", {(task, seed + 10, 0): 1 for task in TASKS for seed in range(3)})
    assert main(["leaderboard", str(first), str(both), "--out", str(tmp_path / "board")]) == 0
    rows = list(csv.DictReader((tmp_path / "board" / "leaderboard.csv").open()))
    assert [(r["run"], r["coverage"], r["coverage_rank"]) for r in rows] == [
        (str(both), "all 2 tasks", "1"), (str(first), "1 of 2 UI variants: 0", "1")]
    assert "Runs covering 1 of 2 UI variants: 0, ranked among themselves" in capsys.readouterr().out


@pytest.mark.browser
def test_the_page_marks_a_run_of_fewer_tasks_and_ranks_it_on_its_own(uneven_board, page):
    page.goto((uneven_board["out"] / "index.html").resolve().as_uri())
    one, six, weaker = uneven_board["runs"]
    assert page.get_by_text("do not all cover the same tasks").is_visible()
    table = page.get_by_role("table")
    groups = table.get_by_role("rowgroup").filter(has=page.locator("tr[data-run]"))
    assert groups.count() == 2
    fullest, fewer = groups.nth(0), groups.nth(1)
    assert "Runs covering all 6 tasks, ranked among themselves" in fullest.get_by_role("row").first.inner_text()
    assert "Runs covering 1 of 6 tasks: TASK_FIND_FLIGHT" in fewer.get_by_role("row").first.inner_text()
    assert fullest.locator("tr[data-run]").evaluate_all("rows => rows.map(r => r.dataset.run)") == [six, weaker]
    assert fullest.locator("td.rank").all_inner_texts() == ["1", "2"]
    assert fullest.locator("td.mark").all_inner_texts() == ["leader", "separable"]
    only = fewer.locator("tr[data-run]")
    assert only.evaluate_all("rows => rows.map(r => r.dataset.run)") == [one]
    assert (only.locator("td.rank").inner_text(), only.locator("td.mark").inner_text()) == ("1", "leader")
    assert only.get_by_text("1 of 6 tasks: TASK_FIND_FLIGHT").is_visible()  # the mark beside the run
    assert fullest.get_by_text("of 6 tasks").count() == 0  # the runs of every task are not marked


def test_the_expert_suite_is_ranked_on_its_test_split_and_the_board_says_so(tmp_path, capsys):
    from scenarios.tasks.expert import TEMPLATES
    train = next(t.name for t in TEMPLATES if t.split == "train")
    test = next(t.name for t in TEMPLATES if t.split == "test")
    run = tmp_path / "expert"
    # perfect on a train template, failing on a test one: the board ranks the test template alone
    write_outcomes(run, "oracle", {(train, seed, 0): 1 for seed in range(4)} | {(test, seed, 0): 0 for seed in range(4)},
                   protocol="expert")
    assert main(["leaderboard", str(run), "--out", str(tmp_path / "board")]) == 0
    (row,) = csv.DictReader((tmp_path / "board" / "leaderboard.csv").open())
    assert (row["episodes"], row["success"], row["coverage"]) == ("4", "0.0", "all 1 tasks")
    note = "The expert suite is ranked on its test split only (its train templates are for training): 4 episodes"
    assert note in capsys.readouterr().out and note in (tmp_path / "board" / "index.html").read_text()
