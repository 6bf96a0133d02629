"""`python -m agent run` with the oracle: every task solved with exactly the gold actions,
trajectories on disk, the summary table, and resuming an interrupted run."""
import csv
import json
from pathlib import Path

import pytest

from agent.__main__ import main
from agent.runner import EpisodeSpec, plan, run_all
from agent.tasks import ALL_TASKS

pytestmark = pytest.mark.browser

EPISODES = 5


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("oracle-run")
    main(["run", "--method", "oracle", "--tasks", "all", "--episodes", str(EPISODES),
          "--concurrency", "2", "--out", str(out), "--quiet"])
    return out


def test_oracle_solves_every_task_with_the_gold_number_of_actions(oracle_run):
    paths = sorted(oracle_run.glob("oracle/*/*.json"))
    assert len(paths) == EPISODES * len(ALL_TASKS)
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
    main(["summarize", "--out", str(oracle_run)])
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["task", "oracle", "success", "oracle", "progress", "oracle", "#actions"]
    assert [line.split()[0] for line in table[2:]] == list(ALL_TASKS)
    assert "1.00 ± 0.00" in table[2] and "5.0 ± 0.0" in table[2]  # a return-trip search is 5 steps
    rows = list(csv.DictReader((oracle_run / "summary.csv").open()))
    assert {row["task"] for row in rows} == set(ALL_TASKS)
    assert all(float(row["success_mean"]) == 1.0 and int(row["episodes"]) == EPISODES for row in rows)


def test_resume_skips_complete_episodes_and_redoes_broken_ones(oracle_run, live_server):
    broken = oracle_run / "oracle" / "TASK_FIND_BOOKING" / "seed1-trial0.json"
    broken.write_text('{"complete": false}')
    specs = [EpisodeSpec("oracle", "TASK_FIND_BOOKING", seed) for seed in range(EPISODES)]
    written = run_all(specs, server_url=live_server, out=oracle_run, progress=False)
    assert written == [broken]
    assert json.loads(broken.read_text())["metrics"]["success"] == 1



def test_trials_replay_the_same_scenario_seeds():
    specs = plan("oracle", ["TASK_FIND_FLIGHT"], episodes=2, seed=10, trials=3)
    assert [(s.seed, s.trial) for s in specs] == [(10, 0), (10, 1), (10, 2), (11, 0), (11, 1), (11, 2)]
    assert len({s.path(Path("out")) for s in specs}) == 6
