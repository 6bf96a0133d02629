"""Default action caps from the gold path (issue 53): step_caps.json says what the scenarios say,
a task's cap is twice its longest gold path in the method's actions plus 10 (at least 60), and
oracle-coordinates solves the longest hard task through the page with the default --max-steps,
run.json recording the caps used."""
import json

import pytest

from agent.__main__ import main
from agent.crm.client import ScenarioClient
from agent.env.actions import PAGE_CHANNEL
from agent.experiment.protocols import PROTOCOLS
from agent.experiment.step_caps import COORDINATES, ELEMENTS, gold_length, longest_paths, measured
from scenarios.steps import click, fill, say, transfer
from tests.conftest import OPERATOR_TOKEN

GOLD = [say("Your code, please?", asks=("confirmation_code",)), fill("code", "KT4M8Z"), click("find-submit"),
        fill("trip-type", "oneway"), say("Done: it is cancelled.", tells=("KT4M8Z",))]


def test_a_gold_path_is_counted_in_the_actions_of_each_space_and_channel():
    assert gold_length(GOLD, ELEMENTS) == 5
    assert gold_length(GOLD, COORDINATES) == 1 + 4 + 1 + 1 + 1  # a text field takes four actions, a choice one
    # on the page each line is typed and sent, and the call ended with End call
    assert gold_length(GOLD, ELEMENTS, PAGE_CHANNEL) == 2 + 1 + 1 + 1 + 2 + 1
    assert gold_length(GOLD, COORDINATES, PAGE_CHANNEL) == 5 + 4 + 1 + 1 + 5 + 1
    handed = [*GOLD[:3], transfer("Wants a refund.")]  # a transfer: its screen, the summary, the button; no End call
    assert gold_length(handed, COORDINATES, PAGE_CHANNEL) == 5 + 4 + 1 + 1 + 4 + 1


def test_the_caps_file_says_what_the_scenarios_say(live_server):
    found = measured(ScenarioClient(live_server, operator_token=OPERATOR_TOKEN), suites=("full", "hard"))
    assert found == {suite: longest_paths()[suite] for suite in ("full", "hard")}


@pytest.mark.beside  # 1030 scenarios drawn: beside the SQLite pass
@pytest.mark.timeout(900)
def test_the_caps_file_says_what_the_expert_templates_say(live_server):
    found = measured(ScenarioClient(live_server, operator_token=OPERATOR_TOKEN), suites=("expert",))
    assert found == {"expert": longest_paths()["expert"]} and set(longest_paths()) == {"full", "hard", "expert"}


def test_a_task_is_capped_at_twice_its_gold_path_in_the_methods_actions_plus_10_and_at_least_60():
    longest = longest_paths()["hard"]["TASK_BOOK_CONSTRAINED"]["coordinates page"]
    caps = PROTOCOLS["hard"].step_limits(None, (COORDINATES,), PAGE_CHANNEL)
    assert caps["TASK_BOOK_CONSTRAINED"] == 2 * longest + 10 > 60 and min(caps.values()) == 60
    assert PROTOCOLS["full"].step_limits(None) == PROTOCOLS["hard"].step_limits(None) == 60  # elements: as before
    assert PROTOCOLS["hard"].step_limits(None, (ELEMENTS, COORDINATES)) == PROTOCOLS["hard"].step_limits(
        None, (COORDINATES,))  # methods of both spaces in one run: the larger cap
    assert PROTOCOLS["hard"].step_limits(45, (COORDINATES,), PAGE_CHANNEL) == 45


@pytest.mark.browser
def test_oracle_coordinates_books_the_constrained_flight_through_the_page_with_the_default_cap(tmp_path, live_server):
    """It takes 73 actions: more than the old default of 60, which needed --max-steps given."""
    out = tmp_path / "run"
    assert main(["run", "--method", "oracle-coordinates", "--protocol", "hard", "--channel", "page", "--tasks",
                 "TASK_BOOK_CONSTRAINED", "--episodes", "1", "--out", str(out), "--quiet", "--no-report",
                 "--server", live_server, "--operator-token", OPERATOR_TOKEN]) == 0
    trajectory = json.loads((out / "oracle-coordinates" / "TASK_BOOK_CONSTRAINED" / "seed0-trial0.json").read_text())
    assert trajectory["metrics"]["success"] == 1 and len(trajectory["steps"]) > 60
    cap = 2 * longest_paths()["hard"]["TASK_BOOK_CONSTRAINED"]["coordinates page"] + 10
    assert json.loads((out / "run.json").read_text())["max_steps"]["TASK_BOOK_CONSTRAINED"] == cap
    assert trajectory["settings"]["max_steps"]["TASK_BOOK_CONSTRAINED"] == cap
