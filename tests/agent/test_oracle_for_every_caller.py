"""Every customer variant in the browser (issue 45): the oracle solves every branch of every hard
task for every caller, saying the variant's gold lines with SAY (one more line per fact for the terse
caller, the exact date asked of the vague one, Search bookings for the unprepared one), with the
verdicts of a solved call; an agent that does nothing scores 0 for every caller. Both go through
`python -m agent run --customer-variant` (each caller, or all) on the session's server, two episodes in flight
sharing one browser, each warm reset switching scenarios inside the page that is open."""
import csv
from collections import defaultdict

import pytest

from agent.__main__ import main
from agent.episode.policy import Policy
from agent.episode.variants import CUSTOMER
from agent.policies import register
from scenarios.tasks import HARD_TASKS
from tests.agent.branches import branch_seeds

# /evaluate's verdicts as episodes.csv keeps them: success, progress, state ok, said ok, verified first, violations
SOLVED = ("1", "1.0", "1", "1", "1", "0")
LABELS = {f"oracle-caller{number}" for number in CUSTOMER.numbers}


class DoNothing(Policy):
    """Stops at once: says nothing, changes nothing."""

    def __init__(self, **options):
        pass

    def reset(self, scenario: dict) -> None:
        pass

    def act(self, observation) -> tuple[str, str]:
        return "nothing to do", "STOP [nothing]"


def run_every_caller(out, server: str, method: str, episodes: int, caller: str = "all",
                     tasks: list[str] = HARD_TASKS) -> list[dict]:
    """The method on hard tasks (every one unless told) for `caller` (a number, or all), `episodes`
    seeds from 0; the rows of episodes.csv."""
    assert main(["run", "--method", method, "--protocol", "hard", "--tasks", ",".join(tasks), "--episodes", str(episodes),
                 "--customer-variant", caller, "--concurrency", "1", "--browsers", "1", "--server", server,
                 "--out", str(out), "--quiet", "--no-report"]) == 0
    return list(csv.DictReader((out / "episodes.csv").open()))


def verdicts(row: dict) -> tuple:
    return (row["success"], row["task_progress"], row["state_ok"], row["said_ok"], row["verified_first"],
            row["policy_violations"])


@pytest.mark.browser
@pytest.mark.beside
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("number", CUSTOMER.numbers[1:])
def test_the_oracle_solves_every_branch_of_every_hard_task_for_every_caller(tmp_path, live_server, number):
    """Callers 1-5 here, a test each: the plain caller's every branch in the browser is
    tests/agent/test_page_channel.py's (through SAY and through the Call panel, the same verdicts)."""
    tasks_by_branches = defaultdict(list)  # each task played on seeds 0 to n - 1, one a branch
    for task in HARD_TASKS:
        tasks_by_branches[len(branch_seeds(live_server, task))].append(task)
    rows = [row for branches, tasks in sorted(tasks_by_branches.items())
            for row in run_every_caller(tmp_path / f"oracle{number}-{branches}", live_server, "oracle", branches,
                                        str(number), tasks)]
    assert len(rows) == sum(len(branch_seeds(live_server, task)) for task in HARD_TASKS)
    assert {row["method"] for row in rows} == {f"oracle-caller{number}"}
    assert {row["customer_variant"] for row in rows} == {str(number)}
    assert [(row["task"], row["seed"]) for row in rows if verdicts(row) != SOLVED] == []


@pytest.mark.browser
def test_doing_nothing_scores_0_for_every_caller(tmp_path, live_server):
    register("do-nothing", DoNothing)
    rows = run_every_caller(tmp_path / "nothing", live_server, "do-nothing", 1)
    assert len(rows) == len(HARD_TASKS) * len(CUSTOMER.numbers)
    assert {row["method"] for row in rows} == {label.replace("oracle", "do-nothing") for label in LABELS}
    assert {(row["success"], row["said_ok"]) for row in rows} == {("0", "0")}
