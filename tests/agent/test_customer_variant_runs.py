"""`--customer-variant K|random|all` beyond the run (issue 45): a caller that does not exist is
refused; a run without the option records nothing of callers; the dataset export keeps the caller
(an older dataset without the column reads as caller 0) and checks its rows with that caller again;
`compare` pairs episodes only with the same caller; the leaderboard ranks a run over fewer callers
apart."""
import csv
import json

import pyarrow.parquet as pq
import pytest

from agent.__main__ import main
from agent.export.reading import read_episodes
from tests.agent.careless_reps import TASK, GivesUpRep, register_reps
from tests.agent.command_line import refusal
from tests.agent.synthetic_runs import write_outcomes

CHANGE, CANCEL = "TASK_POLICY_CHANGE", "TASK_POLICY_CANCEL"


@pytest.mark.parametrize("value", ["6", "chatty", "-1"])
def test_an_unknown_caller_is_refused(tmp_path, capsys, value):
    status, message = refusal(main, ["run", "--method", "oracle", "--protocol", "hard", "--customer-variant", value,
                                     "--server", "http://127.0.0.1:9", "--out", str(tmp_path)], capsys)
    assert status == 2 and f"--customer-variant takes a number from 0 to 5, random or all, not {value!r}" in message


def test_without_the_option_nothing_is_recorded_of_callers(tmp_path, live_server):
    register_reps()
    assert main(["run", "--method", GivesUpRep.name, "--protocol", "hard", "--tasks", TASK, "--episodes", "1",
                 "--server", live_server, "--out", str(tmp_path), "--quiet", "--no-report"]) == 0
    episode = json.loads((tmp_path / GivesUpRep.name / TASK / "seed0-trial0.json").read_text())
    assert "customer_variant" not in episode["settings"] and "customer_variant" not in episode["scenario"]
    assert "customer_variant" not in json.loads((tmp_path / "run.json").read_text())
    assert [row["customer_variant"] for row in csv.DictReader((tmp_path / "episodes.csv").open())] == ["0"]


@pytest.mark.browser
def test_the_export_keeps_the_caller_and_checks_its_rows_with_it(tmp_path, capsys):
    out = tmp_path / "dataset"
    assert main(["export", "scenarios", "--suite", "hard", "--tasks", CHANGE, "--episodes", "1",
                 "--customer-variant", "4", "--out", str(out), "--quiet"]) == 0
    (row,) = pq.read_table(out / "data").to_pylist()
    assert (row["label"], row["customer_variant"], row["success"]) == ("oracle-caller4", 4, 1)
    assert '"search_bookings"' in row["gold_calls"]  # the unprepared caller's gold: the booking found by name
    assert "--customer-variant 4" in (out / "README.md").read_text()
    assert [episode.scenario["customer_variant"] for episode in read_episodes(out)] == [4]
    capsys.readouterr()
    assert main(["export", "check", str(out), "--quiet"]) == 0
    assert main(["export", "check", str(out), "--browser", "--quiet"]) == 0
    assert capsys.readouterr().out.count("All 1 exported episodes check out") == 2
    path = next((out / "data").rglob("*.parquet"))
    pq.write_table(pq.read_table(path).drop(["customer_variant"]), path)  # as exported before callers
    assert [episode.scenario["customer_variant"] for episode in read_episodes(out)] == [0]


def test_compare_pairs_episodes_only_with_the_same_caller(tmp_path, capsys):
    plain, vague = tmp_path / "plain", tmp_path / "vague"
    write_outcomes(plain, "oracle", {(CHANGE, seed, 0): 1 for seed in range(3)}, protocol="hard", customer_variant=0)
    write_outcomes(vague, "oracle", {(CHANGE, seed, 0): 1 for seed in range(2)}, protocol="hard", customer_variant=2)
    write_outcomes(vague, "oracle", {(CHANGE, 2, 0): 0}, protocol="hard", customer_variant=0)
    assert main(["compare", str(plain), str(vague)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        "Paired by (suite, task, seed, UI variant, customer variant, trial): 1 episode pairs. Not paired: 2 only in "
        f"A (hard {CHANGE} seed 0, hard {CHANGE} seed 1); 2 only in B (hard {CHANGE} seed 0 caller 2 (vague), "
        f"hard {CHANGE} seed 1 caller 2 (vague)).")


def test_a_run_over_fewer_callers_is_ranked_apart(tmp_path, capsys):
    every, plain = tmp_path / "every-caller", tmp_path / "plain-caller"
    for caller in range(6):  # one label (a folder's trajectories are one per seed): other seeds per caller
        write_outcomes(every, "oracle", {(task, 2 * caller + s, 0): 1 for task in (CHANGE, CANCEL) for s in range(2)},
                       protocol="hard", customer_variant=caller)
    write_outcomes(plain, "oracle", {(task, seed, 0): 1 for task in (CHANGE, CANCEL) for seed in range(2)},
                   protocol="hard")
    assert main(["leaderboard", str(plain), str(every), "--out", str(tmp_path / "board")]) == 0
    rows = list(csv.DictReader((tmp_path / "board" / "leaderboard.csv").open()))
    assert [(r["run"], r["coverage"], r["coverage_rank"]) for r in rows] == [
        (str(every), "all 2 tasks", "1"), (str(plain), "1 of 6 customer variants: 0", "1")]
    assert "Runs covering 1 of 6 customer variants: 0, ranked among themselves" in capsys.readouterr().out
