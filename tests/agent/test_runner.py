"""`python -m agent run` with the oracle: every task solved with exactly the gold actions,
trajectories on disk, the summary table, run.json, resuming an interrupted run, and the ways a
run fails loudly."""
import contextlib
import csv
import io
import json
import socket
from pathlib import Path

import pytest

from agent.__main__ import main
from agent.experiment.runner import episode_spec, plan, run_all
from scenarios.tasks import TASK_NAMES
from tests.conftest import OPERATOR_TOKEN
from tests.agent.command_line import refusal

pytestmark = pytest.mark.browser

EPISODES = 5
PRINTED = {}  # what the module's oracle run printed


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory):
    """The run on the embedded server, whose operator token the runner knows without being told."""
    out = tmp_path_factory.mktemp("oracle-run")
    printed = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(printed):
        patch.delenv("CRM_OPERATOR_TOKEN")
        status = main(["run", "--method", "oracle", "--tasks", "all", "--episodes", str(EPISODES),
                       "--concurrency", "2", "--out", str(out), "--quiet"])
    assert status == 0
    PRINTED[out] = printed.getvalue()
    return out


def test_oracle_solves_every_task_with_the_gold_number_of_actions(oracle_run):
    paths = sorted(oracle_run.glob("oracle/*/*.json"))
    assert len(paths) == EPISODES * len(TASK_NAMES)
    for path in paths:
        trajectory = json.loads(path.read_text())
        metrics = trajectory["metrics"]
        assert (metrics["success"], metrics["task_progress"]) == (1, 1.0), path
        assert metrics["num_actions"] == len(trajectory["scenario"]["gold_actions"]), path
        assert all(step["error"] is None for step in trajectory["steps"]), path


def test_trajectory_records_each_step(oracle_run):
    trajectory = json.loads((oracle_run / "oracle" / "TASK_FIND_BOOKING" / "seed0-trial0.json").read_text())
    first, last = trajectory["steps"][0], trajectory["steps"][-1]
    assert first["observation"].count("\n") > 3 and first["action"].startswith("CLICK ")
    assert first["reason"] and first["tokens"]["observation"] > 0
    assert {"action_ms", "settle_ms", "observe_ms"} <= set(first["timings"])
    assert last["action"].upper().startswith("STOP") and last["metrics"]["success"] == 1
    assert first["metrics"]["matched"] == [True, False, False]  # the click on Find booking is gold step 1
    assert last["metrics"]["matched"] == [True, True, True]


def test_summary_table_and_csv(oracle_run, capsys):
    main(["summarize", "--out", str(oracle_run), "--wide"])
    title, *table = capsys.readouterr().out.splitlines()
    assert title.startswith("Protocol full: six tasks")
    assert table[0].split() == ["task", "oracle", "success", "oracle", "progress", "oracle", "#actions",
                                "oracle", "crashed", "oracle", "incomplete"]
    assert [line.split("  ")[0] for line in table[2:]] == [*TASK_NAMES, "all tasks"]
    assert "1.00 ± 0.00" in table[2] and "5.0 ± 0.0" in table[2]  # a return-trip search is 5 steps
    rows = list(csv.DictReader((oracle_run / "summary.csv").open()))
    assert [row["task"] for row in rows] == [*TASK_NAMES, "all tasks"]
    assert [int(row["episodes"]) for row in rows] == [EPISODES] * 6 + [6 * EPISODES]
    assert all(float(row["success_mean"]) == 1.0 for row in rows)
    assert all((row["crashed"], row["incomplete"]) == ("0", "0") for row in rows)


def test_the_summary_wider_than_the_terminal_has_a_row_per_method_and_task(oracle_run, capsys):
    main(["summarize", "--out", str(oracle_run)])  # 120 columns (tests/conftest.py); the wide table is wider
    printed = capsys.readouterr().out
    assert max(map(len, printed.splitlines())) <= 120
    first, second = [block.splitlines() for block in printed.split("\n\n")]  # the columns in two blocks
    header = next(i for i, line in enumerate(first) if line.startswith("method"))
    assert first[header].split() == ["method", "task", "success", "progress", "#actions", "crashed"]
    assert second[0].split() == ["method", "task", "incomplete"]
    rows = [["oracle", task] for task in TASK_NAMES] + [["oracle", "all"]]
    assert [line.split()[:2] for line in first[header + 2:]] == [line.split()[:2] for line in second[2:]] == rows


def test_the_run_says_where_its_output_is(oracle_run):
    lines = PRINTED[oracle_run].splitlines()
    assert f"Summary:      {oracle_run / 'summary.csv'}" in lines
    assert f"Trajectories: {oracle_run}/<label>/<task>/seed<N>-trial<T>.json" in lines
    assert f"Run record:   {oracle_run / 'run.json'}" in lines


def test_run_json_records_what_the_run_measured(oracle_run):
    record = json.loads((oracle_run / "run.json").read_text())
    assert record["labels"] == ["oracle"] and record["methods"] == ["oracle"] and record["shots"] == ["0"]
    assert record["tasks"] == list(TASK_NAMES) and record["seeds"] == list(range(EPISODES)) and record["trials"] == 1
    assert (record["max_steps"], record["protocol"], record["temperature"]) == (60, "full", 0.3)
    assert record["settings"] == {"oracle": {"model": None, "temperature": None, "max_steps": 60, "protocol": "full"}}
    assert len(record["git_commit"].split("-")[0]) == 40
    assert record["packages"]["playwright"] and record["packages"]["python"].startswith("3.")
    assert record["server_url"].startswith("http://127.0.0.1:") and record["embedded_server"] is True
    assert record["started"] <= record["ended"] and record["outcome"] == "finished"
    assert record["intervals"] == {"confidence": 0.95, "bootstrap_resamples": 2000, "bootstrap_seed": 0,
                                   "rates": "Wilson score interval (one play per scenario), else percentile bootstrap "
                                            "over scenarios, 2000 resamples, random seed 0"}
    assert record["command"].endswith(f"-m agent run --method oracle --tasks all --episodes {EPISODES} "
                                      f"--concurrency 2 --out {oracle_run} --quiet")
    trajectory = json.loads((oracle_run / "oracle" / "TASK_FIND_FLIGHT" / "seed0-trial0.json").read_text())
    assert trajectory["settings"] == record["settings"]["oracle"]


def test_resume_skips_complete_episodes_and_redoes_broken_ones(oracle_run, live_server):
    broken = oracle_run / "oracle" / "TASK_FIND_BOOKING" / "seed1-trial0.json"
    broken.write_text('{"complete": false}')
    specs = [episode_spec("oracle", "TASK_FIND_BOOKING", seed) for seed in range(EPISODES)]
    written = run_all(specs, server_url=live_server, out=oracle_run, progress=False)
    assert written == [broken]
    assert json.loads(broken.read_text())["metrics"]["success"] == 1



def test_the_progress_bar_shows_the_running_success_rate(tmp_path, live_server, capsys):
    assert main(["run", "--tasks", "TASK_FIND_BOOKING", "--episodes", "2", "--server", live_server,
                 "--out", str(tmp_path)]) == 0
    assert "success 2/2 (100%)" in capsys.readouterr().err


def test_an_unknown_task_is_refused(tmp_path, capsys):
    code, err = refusal(main, ["run", "--tasks", "TASK_FIND_FLIGHT,TASK_FLY_TO_MARS", "--out", str(tmp_path)], capsys)
    assert code == 2
    assert "Unknown task: TASK_FLY_TO_MARS" in err
    assert not any(tmp_path.iterdir())


def test_a_server_that_cannot_be_reached_is_reported(tmp_path, capsys):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["run", "--tasks", "TASK_FIND_BOOKING", "--episodes", "1", "--server", f"http://127.0.0.1:{port}",
                 "--out", str(tmp_path), "--quiet"]) == 1
    assert f"The CRM server at http://127.0.0.1:{port} cannot be used" in capsys.readouterr().err


def test_a_run_in_which_every_episode_crashed_fails(tmp_path, live_server, capsys):
    command = ["run", "--tasks", "TASK_FIND_BOOKING", "--episodes", "2", "--server", live_server, "--quiet"]
    assert main([*command, "--operator-token", "wrong", "--out", str(tmp_path / "a")]) == 1
    printed = capsys.readouterr()
    assert "Every episode of this run crashed (2)" in printed.err and "answered 403" in printed.err
    assert "TASK_FIND_BOOKING" in printed.out  # the table, with the crashes counted
    row, total = csv.DictReader((tmp_path / "a" / "summary.csv").open())
    assert total == {**row, "task": "all tasks"}  # one task: the total over tasks is its row
    assert (row["episodes"], row["crashed"], row["incomplete"]) == ("0", "2", "0")


def test_the_oracle_against_a_server_without_the_operator_token_is_refused_first(tmp_path, monkeypatch, capsys,
                                                                                  live_server):
    monkeypatch.delenv("CRM_OPERATOR_TOKEN")
    with pytest.raises(SystemExit) as stopped:
        main(["run", "--method", "oracle", "--tasks", "TASK_FIND_BOOKING", "--episodes", "1", "--quiet",
              "--server", live_server, "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert "--operator-token TOKEN" in err and "CRM_OPERATOR_TOKEN" in err and live_server in err
    assert not (tmp_path / "run").exists()  # no episode started
    assert main(["run", "--method", "oracle", "--tasks", "TASK_FIND_BOOKING", "--episodes", "1", "--quiet",
                 "--server", live_server, "--out", str(tmp_path / "run"), "--operator-token", OPERATOR_TOKEN]) == 0


def test_trials_replay_the_same_scenario_seeds():
    specs = plan("oracle", ["TASK_FIND_FLIGHT"], episodes=2, seed=10, trials=3)
    assert [(s.seed, s.trial) for s in specs] == [(10, 0), (10, 1), (10, 2), (11, 0), (11, 1), (11, 2)]
    assert len({s.path(Path("out")) for s in specs}) == 6
