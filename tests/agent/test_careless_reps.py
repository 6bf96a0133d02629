"""The customer variants discriminate (issue 45): each careless scripted rep (careless_reps.py)
passes the plain caller and fails the caller it is careless about, with the reason in /evaluate's
verdicts; run over every variant and 10 scenarios (every branch of TASK_POLICY_CHANGE, the hard task
their script works, twice) by the runner, `summarize --by-variant` shows each gap with its interval."""
import json

import pytest

from agent.__main__ import main
from agent.env.api_env import ApiEnv
from agent.episode.play import play_episode
from agent.episode.spec import EpisodeSpec
from agent.episode.variants import CUSTOMER
from tests.agent.careless_reps import (REPS, SEED, SEEDS, TASK, FirstDateRep, GivesUpRep, OneLineRep, RepeatingRep,
                                       register_reps)
from tests.conftest import OPERATOR_TOKEN

WRONG_FLIGHT = "booking DRIYF5: flights outward is "
# rep -> (the variant it fails, the state check's reason there)
FAILS = {
    OneLineRep: (1, WRONG_FLIGHT + "CR8818 2026-09-09, expected CR8334 2026-09-12"),  # terse: the code alone came back
    FirstDateRep: (3, WRONG_FLIGHT + "CR8334 2026-09-03, expected CR8334 2026-09-12"),  # talkative: the cousin's day
    GivesUpRep: (4, "the call was transferred to a supervisor, though the agent could handle it"),  # unprepared
    RepeatingRep: (5, WRONG_FLIGHT + "CR8818 2026-09-09, expected CR8334 2026-09-12"),  # impatient: hung up
}


def played(server: str, rep, variant: int):
    env = ApiEnv(server, operator_token=OPERATOR_TOKEN, suite="hard", on_call=True)
    return play_episode(env, rep(), EpisodeSpec(rep.name, TASK, SEED, customer_variant=str(variant)))


@pytest.mark.parametrize("rep", REPS, ids=lambda rep: rep.name)
def test_each_careless_rep_passes_the_plain_caller_and_fails_its_own(live_server, rep):
    plain = played(live_server, rep, 0).metrics
    assert (plain["success"], plain["state_ok"], plain["said_ok"], plain["policy_violations"],
            plain["customer_variant"]) == (1, True, True, 0, 0)
    variant, reason = FAILS[rep]
    failed = played(live_server, rep, variant).metrics
    assert (failed["success"], failed["state_ok"], failed["said_ok"], failed["customer_variant"]) == \
        (0, False, False, variant)
    assert failed["state_check"]["reason"] == reason


def test_the_impatient_caller_hangs_up_on_the_third_question_and_the_call_is_over(live_server):
    steps = played(live_server, RepeatingRep, 5).steps
    assert [step.get("customer") for step in steps[:3]] == [
        "My confirmation code is DRIYF5. My date of birth is January 24, 1993. How long is this going to take?",
        "I already told you that. My confirmation code is DRIYF5. My date of birth is January 24, 1993.",
        "I've told you that twice already. I'm hanging up."]
    assert steps[3]["action"].startswith("message_customer")
    assert steps[3]["error"] == "The call has ended; reset the scenario to start over"


def test_the_terse_caller_gives_the_one_line_rep_only_the_code(live_server):
    steps = played(live_server, OneLineRep, 1).steps
    assert steps[0]["customer"] == "DRIYF5."
    assert [step["action"].split()[0] for step in steps[1:3]] == ["get_booking", "search_flights"]


def test_the_runner_plays_them_in_every_variant_and_the_table_shows_each_gap(tmp_path, live_server, capsys):
    register_reps()
    out = tmp_path / "run"
    assert main(["run", "--method", ",".join(rep.name for rep in REPS), "--protocol", "hard", "--tasks", TASK,
                 "--episodes", str(SEEDS), "--customer-variant", "all", "--server", live_server, "--out", str(out),
                 "--quiet", "--no-report", "--concurrency", "4"]) == 0
    record = json.loads((out / "run.json").read_text())
    assert record["customer_variant"] == "all" and "ui_variant" not in record
    assert record["settings"]["careless-gives-up-caller4"]["customer_variant"] == "4"
    episode = json.loads((out / "careless-gives-up-caller4" / TASK / "seed0-trial0.json").read_text())
    assert episode["scenario"]["customer_variant"] == 4 and episode["settings"]["customer_variant"] == "4"
    capsys.readouterr()
    assert main(["summarize", "--out", str(out), "--by-variant"]) == 0
    printed = capsys.readouterr().out
    assert "careless-gives-up-caller4" in printed and "-ui0" not in printed
    gaps = printed.split("Generalization gap by customer variant: ")[1].splitlines()
    assert gaps[0] == ("success in caller 0 (plain) minus in each other customer variant (all others: their mean), "
                       "on the same scenarios (paired percentile bootstrap over scenarios, 2000 resamples, "
                       "random seed 0).")
    rows = [" ".join(line.split()) for line in gaps[2:]]  # label, variant, scenarios, successes, gap [interval]
    # each rep passes every branch with the plain caller (a refusal told with its rule) and fails every
    # one with its own: a gap of 1 on each of the 10 scenarios, so no spread
    for rep, (variant, _) in FAILS.items():
        assert f"{rep.name} {CUSTOMER.describe(variant)} 10 1.00 0.00 +1.00 [1.00, 1.00]" in rows
    assert "careless-gives-up caller 5 (impatient) 10 1.00 1.00 +0.00 [0.00, 0.00]" in rows
    # where a habit fails some scenarios only, the interval says how sure the gap is
    assert "careless-first-date caller 1 (terse) 10 1.00 0.40 +0.60 [0.30, 0.90]" in rows
    assert "careless-first-date all others 10 1.00 0.28 +0.72 [0.66, 0.78]" in rows
    assert main(["report", str(out), "--by-variant"]) == 0
    gap = (out / "report" / "index.html").read_text().split('id="variant-gap"')[1].split("</section>")[0]
    assert ("<th>careless-gives-up</th><td>caller 4 (unprepared)</td><td>10</td><td>1.00</td><td>0.00</td>"
            "<td>+1.00 [1.00, 1.00]</td>") in gap
