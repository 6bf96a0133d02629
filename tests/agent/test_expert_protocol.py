"""The expert suite through `python -m agent run` (issue 49): --protocol expert and --split, recorded
in run.json; the tool-calling environment on an expert call; in the `beside` pass the oracle solving
every template (and every branch of a sample) in the browser through SAY and through the page's Call
panel, and a sample for every caller. (Every template's gold over the API:
tests/scenarios/test_gold_path.py.)"""
import csv
import json
from collections import defaultdict

import pytest

from agent.__main__ import main
from agent.env.api_env import ApiEnv
from agent.policies import make_policy
from agent.policies.prompting import task_text
from scenarios.suites import SUITES, split_of
from scenarios.tasks.expert import TEMPLATES
from tests.agent.branches import seeds_to_every_branch
from tests.agent.command_line import refusal
from tests.conftest import OPERATOR_TOKEN

EXPERT = SUITES["expert"]
SAMPLE = ["EXPERT_NAME_CHANGE_CANCEL_QUOTE", "EXPERT_MOVE_OR_CANCEL_BOOK", "EXPERT_CANCEL_REVISED_QUESTION",
          "EXPERT_CHANGE_CANCEL_SUPERVISOR_MIXED", "EXPERT_REBOOK_STATUS", "EXPERT_UPGRADE_NAME_QUESTION",
          "EXPERT_CERTIFICATE_WAIVER_FEE"]  # the last: the knowledge base (issue 50)
SOLVED = ("1", "1.0", "1", "1", "1", "0")  # success, progress, state ok, said ok, verified first, violations


# One episode at a time: make test keeps every core busy with its other passes, and concurrent episodes
# in one process cost more CPU each (docs/tests.md: 33 templates took 51 CPU-s one at a time, 77 six at once).
def run(out, server: str, *options: str, concurrency: int = 1) -> list[dict]:
    assert main(["run", "--protocol", "expert", "--server", server, "--operator-token", OPERATOR_TOKEN,
                 "--out", str(out), "--quiet", "--no-report", "--concurrency", str(concurrency), "--browsers", "1",
                 *options]) == 0
    return list(csv.DictReader((out / "episodes.csv").open()))


def part(names: list[str], index: int, parts: int) -> list[str]:
    """The index-th of `parts` slices of a sweep, so that pytest-xdist spreads a sweep over its workers."""
    return names[index::parts]


def verdicts(row: dict) -> tuple:
    return (row["success"], row["task_progress"], row["state_ok"], row["said_ok"], row["verified_first"],
            row["policy_violations"])


def test_split_takes_the_templates_of_one_split_and_refuses_what_is_outside_it(capsys):
    status, message = refusal(main, ["run", "--method", "oracle", "--protocol", "hard", "--split", "test"], capsys)
    assert status == 2 and "the hard suite has no splits" in message
    train = next(t.name for t in TEMPLATES if t.split == "train")
    status, message = refusal(main, ["run", "--method", "oracle", "--protocol", "expert", "--split", "test",
                                     "--tasks", train], capsys)
    assert status == 2 and f"{train} is not in the test split of the expert suite" in message
    status, message = refusal(main, ["run", "--method", "oracle", "--protocol", "expert", "--split", "dev"], capsys)
    assert status == 2 and "invalid choice: 'dev'" in message


@pytest.mark.browser
def test_a_run_of_the_test_split_records_it_and_plays_only_its_templates(tmp_path, live_server):
    tests = [name for name in EXPERT.task_names if split_of(EXPERT, name) == "test"]
    rows = run(tmp_path / "test", live_server, "--method", "oracle", "--split", "test", "--tasks", ",".join(tests[:2]),
               "--episodes", "1")
    record = json.loads((tmp_path / "test" / "run.json").read_text())
    assert record["split"] == "test" and record["protocol"] == "expert" and record["tasks"] == tests[:2]
    assert [row["success"] for row in rows] == ["1", "1"]
    summary = list(csv.DictReader((tmp_path / "test" / "summary.csv").open()))
    assert [(row["task"], row["requests_ok_mean"], row["requests_ok_low"]) for row in summary] == [
        *((task, "1.0", "1.0") for task in sorted(tests[:2])), ("all tasks", "1.0", "1.0")]


def test_the_table_shows_the_requests_handled_right_per_call(tmp_path, live_server, capsys):
    assert main(["run", "--protocol", "expert", "--method", "oracle-coordinates", "--tasks", "EXPERT_QUESTION_STATUS",
                 "--episodes", "1", "--max-steps", "2", "--server", live_server, "--operator-token", OPERATOR_TOKEN,
                 "--out", str(tmp_path / "short"), "--quiet", "--no-report"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(lines) if "requests ok" in line)  # the block that has the column
    header = lines[at]
    row = next(line for line in lines[at:] if line.startswith("oracle-coordinates  EXPERT_QUESTION_STATUS"))
    assert row[header.index("requests ok"):].startswith("0.00 [0.00, 0.00]")


def test_the_tool_calling_environment_takes_the_expert_suite(live_server):
    env = ApiEnv(live_server, suite="expert", on_call=True)
    obs, info = env.reset(task="EXPERT_CHANGE_CANCEL", seed=0)
    scenario = info["scenario"]
    assert [request["kind"] for request in scenario["details"]["requests"]] == ["change", "cancel"]  # the operator's view
    assert scenario["conversation"][0]["text"].startswith("Hi. I'd like to move my booking")
    _, _, done, _, info = env.step('message_customer {"text": "May I have your confirmation code and date of birth?"}')
    code = info["customer"].split("My confirmation code is ")[1][:6]
    assert not done and info["error"] is None
    _, _, _, _, info = env.step(f'get_booking {{"code": "{code}"}}')
    assert info["error"] is None and info["result"]["status"] == 200
    requests = info["metrics"]["requests"]
    assert [(r["kind"], r["ok"]) for r in requests] == [("change", False), ("cancel", False)]
    assert requests[1]["why"][0].startswith("the customer never got to ask")
    _, reward, done, _, info = env.step("STOP [not finished]")
    assert done and reward == 0 and info["metrics"]["task_progress"] == 0.0


SWEEP_PARTS = 4  # each a test of its own, for the beside pass's workers


@pytest.mark.browser
@pytest.mark.beside
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("index", range(SWEEP_PARTS))
@pytest.mark.parametrize("channel", ["say", "page"])
def test_the_oracle_solves_every_template_through_say_and_the_call_panel(tmp_path, live_server, channel, index):
    tasks = part([t.name for t in TEMPLATES], index, SWEEP_PARTS)
    rows = run(tmp_path / channel, live_server, "--method", "oracle", "--tasks", ",".join(tasks), "--episodes", "1",
               "--channel", channel)
    assert len(rows) == len(tasks)
    assert [row["task"] for row in rows if verdicts(row) != SOLVED] == []


def test_the_sweep_parts_hold_every_template_once():
    names = [t.name for t in TEMPLATES]
    parts = [part(names, index, SWEEP_PARTS) for index in range(SWEEP_PARTS)]
    assert sorted(name for names_of_part in parts for name in names_of_part) == sorted(names)


BRANCH_SAMPLE = [template.name for template in TEMPLATES[::6][:20]]


@pytest.mark.browser
@pytest.mark.beside
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("index", range(2))
@pytest.mark.parametrize("channel", ["say", "page"])
def test_the_oracle_solves_every_branch_of_a_sample_of_templates(tmp_path, live_server, channel, index):
    """Every branch each template of the sample can take (a fee under or over the caller's limit, a
    booking the policy allows or refuses ...), on both channels: its seeds from 1 on (seed 0 is the
    sweep's above) until they have met every branch that seeds 0 to 4 meet (two to four seeds)."""
    templates_by_seeds = defaultdict(list)
    for template in part(BRANCH_SAMPLE, index, 2):
        templates_by_seeds[seeds_to_every_branch(live_server, template)].append(template)
    rows = []
    for seeds, templates in sorted(templates_by_seeds.items()):
        if seeds > 1:
            rows += run(tmp_path / f"branches-{seeds}", live_server, "--method", "oracle", "--tasks",
                        ",".join(templates), "--episodes", str(seeds - 1), "--seed", "1", "--channel", channel)
    assert len(rows) == sum((seeds - 1) * len(templates) for seeds, templates in templates_by_seeds.items())
    assert [(r["task"], r["seed"]) for r in rows if verdicts(r) != SOLVED] == []


@pytest.mark.browser
@pytest.mark.beside
@pytest.mark.timeout(1800)
def test_the_oracle_solves_a_sample_of_templates_for_every_caller(tmp_path, live_server):
    rows = run(tmp_path / "callers", live_server, "--method", "oracle", "--tasks", ",".join(SAMPLE[:4]),
               "--episodes", "1", "--customer-variant", "all")
    assert len(rows) == 4 * 6 and [(r["task"], r["customer_variant"]) for r in rows if verdicts(r) != SOLVED] == []


@pytest.mark.parametrize("method, channel", [*((method, channel) for method in ("flat", "heap", "step", "synapse", "webwise")
                                                for channel in ("say", "page")), ("toolcall", "say")])
def test_every_llm_method_on_an_expert_call_is_pointed_at_the_knowledge_base_not_told_the_hard_policy(method, channel):
    policy = make_policy(method, model="fake-model", base_url="http://127.0.0.1:9/v1", protocol="expert",
                         on_call=True, channel=channel)
    policy.reset({"id": "x", "instruction": "The briefing.", "conversation": [{"role": "CUS", "text": "Hi."}]})
    told = task_text(policy.scenario)
    assert "THE AIRLINE'S POLICY:\nThe airline's policy is not written here: it lives in the CRM's knowledge base" in told
    assert "# Changes and cancellations" not in told and "| Basic | not allowed |" not in told
    assert "superseded by" in told and "temporary rule" in told
