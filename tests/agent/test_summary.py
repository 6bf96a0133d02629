"""The papers' table from trajectories: mean ± standard error per task and method, pass^k."""
import csv
import re
import math

from agent.episode.trajectory import Trajectory
from agent.results.intervals import Bootstrap, cluster_bootstrap, wilson
from agent.__main__ import main
from agent.results.summary import pass_hat_k, summarize, summary_rows, write_csv
from agent.results.table import format_labelled, format_table
from tests.agent.synthetic_runs import write_outcomes


def rows_of(trajectories, planned=()):
    """summarize() of trajectories written as their files hold them."""
    return summarize([Trajectory.from_json(t) for t in trajectories], planned)


def run(method, task, seed, success, progress, actions, trial=0):
    return {"method": method, "task": task, "seed": seed, "trial": trial, "complete": True,
            "metrics": {"success": success, "task_progress": progress, "num_actions": actions}}


def test_mean_and_standard_error_per_task_and_method():
    rows = rows_of([run("flat", "TASK_FIND_BOOKING", 0, 1, 1.0, 3), run("flat", "TASK_FIND_BOOKING", 1, 0, 0.5, 5)])
    (row,) = rows
    assert row["success_mean"] == 0.5 and math.isclose(row["success_se"], 0.5)
    assert row["progress_mean"] == 0.75 and row["actions_mean"] == 4.0 and math.isclose(row["actions_se"], 1.0)


def test_table_has_one_column_group_per_method_and_tasks_in_paper_order():
    rows = rows_of([run("step", "TASK_CANCEL_FLIGHT", 0, 1, 1.0, 6), run("flat", "TASK_FIND_FLIGHT", 0, 0, 0.4, 2)])
    lines = format_table(rows).splitlines()
    assert lines[0].split() == ["task"] + ["flat", "success", "flat", "progress", "flat", "#actions",
                                           "flat", "crashed", "flat", "incomplete",
                                           "step", "success", "step", "progress", "step", "#actions",
                                           "step", "crashed", "step", "incomplete"]
    assert lines[2].split()[0] == "TASK_FIND_FLIGHT" and lines[3].split()[0] == "TASK_CANCEL_FLIGHT"
    assert lines[3].split()[1] == "-"  # flat never ran the cancel task


def test_pass_k_needs_every_replay_of_a_scenario_to_succeed():
    assert pass_hat_k([[1, 1, 1], [1, 0, 1]], 3) == 0.5
    assert math.isclose(pass_hat_k([[1, 0, 1]], 2), 1 / 3)  # C(2,2) / C(3,2)
    trajectories = [run("oracle", "TASK_FIND_FLIGHT", seed, ok, 1.0, 5, trial)
                    for seed, results in ((0, (1, 1)), (1, (1, 0))) for trial, ok in enumerate(results)]
    (row,) = rows_of(trajectories)
    assert row["k"] == 2 and row["pass_k"] == 0.5 and row["success_mean"] == 0.75
    assert "0.50 [0.00, 1.00] (k=2)" in format_table([row])


def test_zero_and_few_shot_runs_of_one_method_are_separate_rows():
    zero = {**run("heap", "TASK_FIND_FLIGHT", 0, 0, 0.5, 4), "shots": "0", "label": "heap-zero-shot"}
    few = {**run("heap", "TASK_FIND_FLIGHT", 0, 1, 1.0, 5), "shots": "few", "label": "heap-few-shot"}
    rows = rows_of([zero, few])
    assert [(r["method"], r["shots"], r["success_mean"]) for r in rows] == [
        ("heap-few-shot", "few", 1.0), ("heap-zero-shot", "0", 0.0)]
    assert format_table(rows).splitlines()[0].split()[1::2] == ["heap-few-shot"] * 5 + ["heap-zero-shot"] * 5


def test_embedding_tokens_are_summed_and_shown_only_when_spent():
    used = {**run("synapse", "TASK_CANCEL_FLIGHT", 0, 1, 1.0, 6), "label": "synapse-few-shot",
            "usage": {"prompt_tokens": 900, "completion_tokens": 40, "calls": 3, "embedding_tokens": 25}}
    again = {**used, "seed": 1, "usage": {**used["usage"], "embedding_tokens": 30}}
    (row,) = rows_of([used, again])
    assert (row["embedding_tokens"], row["prompt_tokens"], row["llm_calls"]) == (55, 1800, 6)
    header, _, values = format_table([row]).splitlines()
    columns = [c.strip() for c in re.split(r"\s{2,}", header)]
    assert columns[-3:] == ["synapse-few-shot embedding tokens", "synapse-few-shot crashed", "synapse-few-shot incomplete"]
    assert re.split(r"\s{2,}", values)[-3:] == ["55", "0", "0"]
    plain = rows_of([{**used, "usage": {"prompt_tokens": 1, "completion_tokens": 1}}])
    assert "embedding tokens" not in format_table(plain)


def test_crashed_and_incomplete_episodes_are_counted_per_task_and_label(tmp_path):
    crash = {"method": "flat", "label": "flat-zero-shot", "task": "TASK_FIND_FLIGHT", "seed": 1, "trial": 0,
             "complete": False, "crash": "Traceback ...\nValueError: boom"}
    done = {**run("flat", "TASK_FIND_FLIGHT", 0, 1, 1.0, 5), "label": "flat-zero-shot"}
    planned = {("flat-zero-shot", task, seed, 0) for task in ("TASK_FIND_FLIGHT", "TASK_FIND_BOOKING") for seed in (0, 1, 2)}
    rows = rows_of([done, crash], planned)
    assert [(r["task"], r["episodes"], r["crashed"], r["incomplete"]) for r in rows] == [
        ("TASK_FIND_FLIGHT", 1, 1, 1), ("TASK_FIND_BOOKING", 0, 0, 3)]
    lines = format_table(rows).splitlines()
    assert lines[0].split()[-2:] == ["flat-zero-shot", "incomplete"]
    assert lines[2].split() == ["TASK_FIND_FLIGHT", "1.00", "±", "n/a", "[0.21,", "1.00]", "1.00", "±", "n/a",
                                "[1.00,", "1.00]", "5.0", "±", "n/a", "1", "1"]
    assert lines[3].split() == ["TASK_FIND_BOOKING", "-", "-", "-", "0", "3"]
    write_csv(rows, tmp_path / "summary.csv")
    first, second = csv.DictReader((tmp_path / "summary.csv").open())
    assert (first["crashed"], first["incomplete"], first["success_mean"], first["success_se"]) == ("1", "1", "1.0", "n/a")
    assert (first["success_low"], first["success_high"], first["interval"]) == ("0.2065", "1.0", "wilson")
    assert (second["episodes"], second["incomplete"], second["success_mean"]) == ("0", "3", "")


def test_one_episode_has_no_standard_error():
    (row,) = rows_of([run("oracle", "TASK_FIND_BOOKING", 0, 1, 1.0, 3)])
    assert math.isnan(row["success_se"]) and "1.00 ± n/a" in format_table([row])
    assert "± 0.00" not in format_table([row])


def test_a_wilson_interval_is_the_textbook_one():
    # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (score interval without correction)
    assert [round(x, 4) for x in wilson(81, 263)] == [0.2553, 0.3662]
    assert [round(x, 4) for x in wilson(15, 148)] == [0.0624, 0.1605]
    assert [round(x, 4) for x in wilson(0, 20)] == [0.0, 0.1611]
    assert [round(x, 4) for x in wilson(1, 29)] == [0.0061, 0.1718]


def test_a_bootstrap_interval_is_fixed_by_its_seed_and_resamples():
    clusters = [[0.2, 0.4], [0.9, 1.0], [0.5], [0.7, 0.75], [0.1, 0.3], [1.0, 1.0], [0.6, 0.2]]  # a scenario's plays
    assert [round(x, 4) for x in cluster_bootstrap(clusters)] == [0.3643, 0.8115]  # 2000 resamples, seed 0
    assert cluster_bootstrap(clusters) == cluster_bootstrap(clusters)
    assert [round(x, 4) for x in cluster_bootstrap(clusters, bootstrap=Bootstrap(resamples=500, seed=7))] == [
        0.3634, 0.8359]


def test_a_rate_of_single_plays_gets_a_wilson_interval_and_replays_a_bootstrap_over_scenarios():
    once = rows_of([run("flat", "TASK_FIND_FLIGHT", seed, int(seed < 8), 1.0, 5) for seed in range(10)])
    (row,) = once
    assert (row["interval"], round(row["success_low"], 4), round(row["success_high"], 4)) == ("wilson", 0.4902, 0.9433)
    title, _, _, line = format_labelled(once).splitlines()
    assert "0.80 ± 0.13 [0.49, 0.94]" in line
    assert title.endswith("95% intervals: Wilson score interval for success and under policy (one play per scenario), "
                          "percentile bootstrap over scenarios, 2000 resamples, random seed 0 for progress and pass^k.")
    replayed = rows_of([run("flat", "TASK_FIND_FLIGHT", seed, int(seed < 4 or trial == 0), 1.0, 5, trial)
                        for seed in range(8) for trial in range(2)])
    (row,) = replayed
    assert (row["interval"], row["success_mean"], row["success_low"], row["success_high"]) == (
        "bootstrap", 0.75, 0.5625, 0.9375)
    assert (row["pass_k"], row["pass_k_low"], row["pass_k_high"]) == (0.5, 0.125, 0.875)
    assert format_labelled(replayed).splitlines()[0].endswith(
        "95% intervals: percentile bootstrap over scenarios, 2000 resamples, random seed 0.")


def test_the_time_per_task_is_a_column_only_where_a_person_played(tmp_path):
    person = {"name": "Ada", "consent": None}
    human = [{**run("human", "TASK_FALSE_CLAIM", seed, 1, 1.0, 4), "person": person, "seconds": seconds}
             for seed, seconds in ((0, 40.0), (1, 50.0))]
    agent = [{**run("oracle", "TASK_FALSE_CLAIM", 0, 1, 1.0, 4), "seconds": 3.0}]
    rows = rows_of(human + agent)
    header, _, line = [re.split(r"\s{2,}", text.strip()) for text in format_table(rows).splitlines()]
    cells = dict(zip(header, line))
    assert cells["human seconds"] == "45.0" and cells["oracle seconds"] == "-"
    write_csv(rows, tmp_path / "summary.csv")
    with open(tmp_path / "summary.csv") as handle:
        written = {row["method"]: row for row in csv.DictReader(handle)}
    assert written["human"]["seconds_mean"] == "45.0" and written["oracle"]["seconds_mean"] == ""

    agents_only = rows_of(agent)
    assert "seconds" not in format_table(agents_only)
    write_csv(agents_only, tmp_path / "agents.csv")
    assert "seconds_mean" not in (tmp_path / "agents.csv").read_text()


SIX_TASKS = ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
             "TASK_UPDATE_PASSENGER_DETAILS", "TASK_MODIFY_FLIGHT")


def totals(trajectories, planned=()):
    """summary_rows() of trajectories written as their files hold them: (per-task rows, total rows)."""
    rows = summary_rows([Trajectory.from_json(t) for t in trajectories], planned)
    return [r for r in rows if r["task"] != "all tasks"], [r for r in rows if r["task"] == "all tasks"]


def test_the_total_over_tasks_of_single_plays_gets_a_wilson_interval_in_the_table_and_summary_csv(tmp_path):
    write_outcomes(tmp_path, "oracle", {(task, seed, 0): 1 for task in SIX_TASKS for seed in range(5)})
    assert main(["summarize", "--out", str(tmp_path)]) == 0
    rows = list(csv.DictReader((tmp_path / "summary.csv").open()))
    assert [row["task"] for row in rows] == [*SIX_TASKS, "all tasks"]
    # Wilson with every one of n a success: centre - half = 1 / (1 + z^2/n) = n / (n + z^2), z^2 = 1.959964^2
    # = 3.841459; 5 / 8.841459 = 0.565518 per task, 30 / 33.841459 = 0.886487 over all; the high bound is 1.
    assert [(row["episodes"], row["success_low"], row["success_high"], row["interval"]) for row in rows] == [
        ("5", "0.5655", "1.0", "wilson")] * 6 + [("30", "0.8865", "1.0", "wilson")]


def test_the_printed_total_reads_30_of_30_beside_the_tasks(tmp_path, capsys):
    write_outcomes(tmp_path, "oracle", {(task, seed, 0): 1 for task in SIX_TASKS for seed in range(5)})
    assert main(["summarize", "--out", str(tmp_path), "--wide"]) == 0
    lines = capsys.readouterr().out.splitlines()[3:]
    assert [line.split("  ")[0] for line in lines] == [*SIX_TASKS, "all tasks"]
    assert all("1.00 ± 0.00 [0.57, 1.00]" in line for line in lines[:6])
    assert "1.00 ± 0.00 [0.89, 1.00]" in lines[6]


def test_the_total_over_replayed_scenarios_resamples_each_scenario_with_all_its_plays():
    plays = {("TASK_FIND_FLIGHT", 0): (1, 1), ("TASK_FIND_FLIGHT", 1): (1, 0), ("TASK_FIND_FLIGHT", 2): (0, 0),
             ("TASK_BOOK_FLIGHT", 0): (1, 1), ("TASK_BOOK_FLIGHT", 1): (1, 1), ("TASK_BOOK_FLIGHT", 2): (0, 1)}
    _, (total,) = totals([run("flat", task, seed, success, 1.0 if success else 0.5, 4, trial)
                          for (task, seed), outcomes in plays.items() for trial, success in enumerate(outcomes)])
    clusters = [list(map(float, outcomes)) for outcomes in plays.values()]  # a scenario: a task's seed, both plays
    assert (total["episodes"], total["interval"], total["success_mean"]) == (12, "bootstrap", 8 / 12)
    assert (total["success_low"], total["success_high"]) == cluster_bootstrap(clusters)
    progress = [[1.0 if success else 0.5 for success in cluster] for cluster in clusters]
    assert (total["progress_mean"], (total["progress_low"], total["progress_high"])) == (
        10 / 12, cluster_bootstrap(progress))
    # pass^2 per scenario is 1 where both plays succeeded: 3 of the 6 scenarios
    assert (total["k"], total["pass_k"]) == (2, 0.5)
    assert (total["pass_k_low"], total["pass_k_high"]) == cluster_bootstrap([[1.0], [0.0], [0.0], [1.0], [1.0], [0.0]])


def call(task, seed, success, violations):
    return {**run("oracle", task, seed, success, 1.0, 5), "settings": {"protocol": "hard"},
            "metrics": {"success": success, "task_progress": 1.0, "num_actions": 5, "state_ok": success,
                        "said_ok": 1, "verified_first": 1, "policy_violations": violations}}


def test_the_total_of_a_call_has_completion_under_policy_with_its_wilson_interval():
    _, (total,) = totals([call("TASK_POLICY_CANCEL", 0, 1, 0), call("TASK_POLICY_CANCEL", 1, 1, 2),
                          call("TASK_FALSE_CLAIM", 0, 1, 0), call("TASK_FALSE_CLAIM", 1, 1, 0)])
    assert (total["protocol"], total["under_policy_rate"], total["policy_violations"]) == ("hard", 0.75, 2)
    # Wilson, 3 of 4: p = 0.75, z^2 = 3.841459; centre (0.75 + z^2/8) / (1 + z^2/4) = 1.230182 / 1.960365 = 0.627527,
    # half z / (1 + z^2/4) * sqrt(0.75 * 0.25 / 4 + z^2/64) = 0.999796 * sqrt(0.106898) = 0.326885: [0.3006, 0.9544]
    assert (round(total["under_policy_low"], 4), round(total["under_policy_high"], 4)) == (0.3006, 0.9544)


def test_a_label_played_in_two_suites_has_a_total_per_suite():
    rows = summary_rows([Trajectory.from_json(t) for t in (
        run("oracle", "TASK_FIND_FLIGHT", 0, 1, 1.0, 3), run("oracle", "TASK_BOOK_FLIGHT", 0, 0, 0.5, 3),
        call("TASK_POLICY_CANCEL", 0, 1, 0))])
    assert [(row["task"], row["protocol"], row["episodes"]) for row in rows] == [
        ("TASK_FIND_FLIGHT", "full", 1), ("TASK_BOOK_FLIGHT", "full", 1), ("TASK_POLICY_CANCEL", "hard", 1),
        ("all tasks", "full", 2), ("all tasks", "hard", 1)]
    assert [line.split("  ")[0] for line in format_labelled(rows).splitlines()[3:]] == [
        "TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_POLICY_CANCEL", "all tasks (full)", "all tasks (hard)"]


def test_the_total_counts_the_crashed_and_incomplete_episodes_of_every_task():
    crashed = {**run("flat", "TASK_FIND_FLIGHT", 1, 0, 0.0, 0), "complete": False, "crash": "Traceback ..."}
    _, (total,) = totals([run("flat", "TASK_FIND_FLIGHT", 0, 1, 1.0, 3), crashed, run("flat", "TASK_BOOK_FLIGHT", 0, 1, 1.0, 3)],
                         planned=[("flat", "TASK_BOOK_FLIGHT", 0, 0), ("flat", "TASK_BOOK_FLIGHT", 1, 0)])
    assert (total["episodes"], total["crashed"], total["incomplete"], total["success_mean"]) == (2, 1, 1, 1.0)
