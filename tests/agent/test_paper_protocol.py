"""`python -m agent run --protocol paper`: the oracle scores 1.0 with the papers' #act, episodes
stop on the first action after which the server reports success or at the task's cap, the papers'
observation, called policies that see only their own call, and the table with the papers' numbers
beside the measured ones. The model is the fake OpenAI-compatible server with scripted replies."""
from __future__ import annotations

import contextlib
import csv
import io
import json
import re

import pytest

from agent.__main__ import main
from agent.env.browser_env import CrmEnv
from agent.env.observation import observe
from agent.experiment.protocols import PAPER_CAPS, PROTOCOLS
from tests.agent import scripted_paper
from tests.agent.scripted_model import reply, system_text, user_text
from tests.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.browser

PAPER_TASKS = ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
               "TASK_UPDATE_PASSENGER_DETAILS")
PAPER_ACT = {"TASK_FIND_FLIGHT": {5}, "TASK_BOOK_FLIGHT": {20}, "TASK_FIND_BOOKING": {3},
             "TASK_CANCEL_FLIGHT": {6}, "TASK_UPDATE_PASSENGER_DETAILS": {6, 7, 8}}
EPISODES = 2
PRINTED = {}


@pytest.fixture(scope="module")
def oracle_paper_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("oracle-paper")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["run", "--protocol", "paper", "--method", "oracle", "--tasks", "all", "--episodes",
                     str(EPISODES), "--concurrency", "2", "--out", str(out), "--quiet"]) == 0
    PRINTED[out] = printed.getvalue()
    return out


def trajectories(out, label="oracle"):
    return [json.loads(path.read_text()) for path in sorted(out.glob(f"{label}/*/*.json"))]


def test_the_oracle_scores_one_with_the_papers_number_of_actions(oracle_paper_run):
    found = trajectories(oracle_paper_run)
    assert sorted({t["task"] for t in found}) == sorted(PAPER_TASKS) and len(found) == EPISODES * len(PAPER_TASKS)
    for trajectory in found:
        metrics, steps = trajectory["metrics"], trajectory["steps"]
        assert (metrics["success"], metrics["task_progress"]) == (1, 1.0), trajectory["task"]
        assert trajectory["agent_actions"] in PAPER_ACT[trajectory["task"]], trajectory["task"]
        assert trajectory["agent_actions"] == len(steps) == len(trajectory["scenario"]["gold_actions"])
        assert trajectory["end"]["cause"] == "success" and not any(s["action"].startswith("STOP") for s in steps)
        assert [s["metrics"]["success"] for s in steps] == [0] * (len(steps) - 1) + [1]  # stopped on the first
        assert "flight" not in trajectory["scenario"]["details"] or "return" in trajectory["scenario"]["details"]["flight"]
    rows = {row["task"]: row for row in csv.DictReader((oracle_paper_run / "summary.csv").open())}
    assert {task: float(rows[task]["actions_mean"]) for task in ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT",
            "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT")} == {"TASK_FIND_FLIGHT": 5.0, "TASK_BOOK_FLIGHT": 20.0,
                                                            "TASK_FIND_BOOKING": 3.0, "TASK_CANCEL_FLIGHT": 6.0}
    assert all(row["protocol"] == "paper" and row["success_mean"] == "1.0" for row in rows.values())


def test_the_run_records_the_protocol_and_the_table_is_labelled_with_it(oracle_paper_run):
    record = json.loads((oracle_paper_run / "run.json").read_text())
    assert record["protocol"] == "paper" and record["tasks"] == list(PAPER_TASKS)
    assert record["max_steps"] == PAPER_CAPS == {"TASK_FIND_FLIGHT": 10, "TASK_BOOK_FLIGHT": 25, "TASK_FIND_BOOKING": 10,
                                                 "TASK_CANCEL_FLIGHT": 10, "TASK_UPDATE_PASSENGER_DETAILS": 15}
    for trajectory in trajectories(oracle_paper_run):
        assert trajectory["settings"] == {"model": None, "temperature": None, "max_steps": PAPER_CAPS,
                                          "protocol": "paper", "conversation": False}
    title, header, _, *body = PRINTED[oracle_paper_run].splitlines()
    assert title.startswith("Protocol paper: the papers' five tasks, return trips")
    assert header.split() == ["task", "metric", "oracle"]
    assert body[0].split() == ["TASK_FIND_FLIGHT", "success", "1.00", "±", "0.00", "[0.34,", "1.00]"]  # Wilson, 2 of 2
    assert body[2].split() == ["#actions", "5.0", "±", "0.0"]


def test_the_papers_observation_is_what_the_agent_saw(oracle_paper_run):
    (booking,) = [t for t in trajectories(oracle_paper_run) if t["task"] == "TASK_BOOK_FLIGHT" and t["seed"] == 0]
    pages = [step["observation"] for step in booking["steps"]]
    passenger = next(page for page in pages if "<text" in page and ">Passenger details</text>" in page)
    lines = passenger.splitlines()
    for label in ("First name", "Date of birth"):
        index = next(i for i, line in enumerate(lines) if line.startswith("<input ") and f" {label}" in line)
        assert lines[index - 1].endswith(f">{label}</text>"), (label, lines[index - 1])  # the label, its own line
    for legend, options in (("Title", ["Mr", "Mrs", "Ms", "Miss", "Dr"]), ("Gender", ["Male", "Female", "Other"])):
        start = next(i for i, line in enumerate(lines) if line.endswith(f">{legend}</text>"))
        group = lines[start + 1:start + 1 + 2 * len(options)]  # each radio, then its label's text
        assert [re.sub(r" id=\d+", "", line) for line in group] == [
            line for option in options for line in (f"<radio {option}/>", f"<text>{option}</text>")]
    assert not any(line.startswith("<select") for page in pages for line in page.splitlines())
    assert not any(line.startswith("ERROR") for page in pages for line in page.splitlines())


def test_an_action_error_leaves_no_error_line_in_the_papers_observation(live_server, browser):
    with CrmEnv(live_server, browser=browser, **PROTOCOLS["paper"].env_options()) as env:
        obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=3)
        assert "return" in info["scenario"]["details"]["flight"] and "CR" not in info["scenario"]["instruction"]
        lines = obs.text.splitlines()
        label = next(i for i, line in enumerate(lines) if line.endswith(">From</text>"))
        assert lines[label + 1].startswith("<input ") and " text From " in lines[label + 1]
        folded = observe(env.page).text  # the same page as the full protocol shows it: the label folded in
        assert not any(line.endswith(">From</text>") for line in folded.splitlines())
        assert any(line.startswith("<input ") and " text From " in line for line in folded.splitlines())
        obs, reward, terminated, truncated, info = env.step("CLICK 9999")
        assert info["error"] == "CLICK 9999 failed: There is no element with id 9999 on the page."
        assert obs.error == info["error"] and "ERROR" not in obs.text and not terminated


def run_paper(out, fake, method, task, *extra):
    assert main(["run", "--protocol", "paper", "--method", method, "--tasks", task, "--episodes", "1",
                 "--out", str(out), "--quiet", "--model", "fake-model", "--base-url", fake.base_url, *extra]) == 0
    label = f"{method}-few-shot" if "few" in extra else f"{method}-zero-shot"
    return json.loads((out / label / task / "seed0-trial0.json").read_text())


def turns(trajectory) -> list[str]:
    return [turn["text"] for turn in trajectory["scenario"]["conversation"]]


def test_heap_low_level_calls_see_their_own_call_only(tmp_path, live_server):
    with FakeOpenAIServer(scripted_paper.heap_find_flight) as fake:
        trajectory = run_paper(tmp_path, fake, "heap", "TASK_FIND_FLIGHT", "--server", live_server,
                               "--shots", "few", "--conversation")
    assert trajectory["metrics"]["success"] == 1 and trajectory["end"]["cause"] == "success"
    assert trajectory["agent_actions"] == 5 and trajectory["settings"]["conversation"] is True
    instruction = trajectory["scenario"]["instruction"]
    roles = [scripted_paper.role(request) for request in fake.requests]
    assert roles.count("PLANNER") == 1  # the search click succeeded: the planner is not asked again
    assert {"FILL_TEXT", "CHOOSE_DATE", "PAGE_ACTION"} <= set(roles)
    planner = user_text(fake.requests[0])
    assert instruction in planner and all(turn in planner for turn in turns(trajectory))
    for request, name in zip(fake.requests, roles):
        if name == "PLANNER":
            continue
        prompt = user_text(request)
        job = scripted_paper.job(request)
        assert job in trajectory["steps"][0]["policy"]["plan"] and job.split()[0] in (name, "CLICK")
        assert instruction not in prompt and not any(turn in prompt for turn in turns(trajectory)), name
        assert "TASK" not in prompt and "CONVERSATION" not in prompt
    grounded = [request for request, name in zip(fake.requests, roles) if name == "PAGE_ACTION"]
    assert [scripted_paper.job(request) for request in grounded] == ["CLICK Search flights"]
    assert trajectory["steps"][-1]["action"].startswith("CLICK ") and "Search" not in trajectory["steps"][-1]["action"]
    assert "Example 1" in system_text(grounded[0])  # the grounding policy's examples, --shots few


def test_step_sub_policies_see_their_own_call_only(tmp_path, live_server):
    with FakeOpenAIServer(scripted_paper.step_find_flight) as fake:
        trajectory = run_paper(tmp_path, fake, "step", "TASK_FIND_FLIGHT", "--server", live_server, "--conversation")
    assert trajectory["metrics"]["success"] == 1 and trajectory["end"]["cause"] == "success"
    instruction = trajectory["scenario"]["instruction"]
    called = [request for request in fake.requests if scripted_paper.role(request) != "STEP:CRM"]
    assert {scripted_paper.role(request) for request in called} == {"STEP:FILL_TEXT", "STEP:CHOOSE_DATE"}
    flight = trajectory["scenario"]["details"]["flight"]
    assert {scripted_paper.job(request) for request in called} >= {f"FILL_TEXT [From: {flight['from']}]",
                                                                    f"FILL_TEXT [To: {flight['to']}]"}
    for request in called:
        prompt = user_text(request)
        assert scripted_paper.job(request) in prompt
        assert instruction not in prompt and not any(turn in prompt for turn in turns(trajectory))
    root = [user_text(r) for r in fake.requests if scripted_paper.role(r) == "STEP:CRM"]
    assert all(instruction in prompt and "CONVERSATION:" in prompt for prompt in root)
    assert "You are one policy, FILL_TEXT," in system_text(called[0]) and "Example 1" not in system_text(called[0])


def test_the_caps_hold_and_invalid_actions_count(tmp_path, live_server):
    replies = iter([reply("Try.", "CLICK 9999"), "I am not sure what to do."] * 20)
    with FakeOpenAIServer(lambda request: next(replies)) as fake:
        trajectory = run_paper(tmp_path, fake, "flat", "TASK_FIND_BOOKING", "--server", live_server)
    assert len(trajectory["steps"]) == trajectory["agent_actions"] == PAPER_CAPS["TASK_FIND_BOOKING"] == 10
    assert len(fake.requests) == 10 and trajectory["end"]["cause"] == "max_steps"
    assert all(step["error"] for step in trajectory["steps"])  # every action was invalid, and counted
    row, total = csv.DictReader((tmp_path / "summary.csv").open())
    assert total == {**row, "task": "all tasks"}  # one task: the total over tasks is its row
    assert float(row["actions_mean"]) == 10.0 and int(trajectory["metrics"]["num_actions"]) == 0
    assert "ERROR" not in model_pages(fake)
    first = user_text(fake.requests[0])  # without --conversation the task is the instruction alone
    assert trajectory["scenario"]["instruction"] in first and "CONVERSATION" not in first
    assert not any(turn in first for turn in turns(trajectory))


def model_pages(fake) -> str:
    return "\n".join(user_text(request).split("CURRENT PAGE:", 1)[1] for request in fake.requests)


def test_the_papers_table_with_the_reference_columns(tmp_path, live_server, capsys):
    with FakeOpenAIServer(scripted_paper.every_method_stops) as fake:
        assert main(["run", "--protocol", "paper", "--method", "flat,heap,step", "--shots", "0,few",
                     "--reference", "heap-fig5", "--tasks", "TASK_BOOK_FLIGHT,TASK_FIND_BOOKING", "--episodes", "1",
                     "--concurrency", "3",
                     "--out", str(tmp_path), "--quiet", "--model", "fake-model", "--base-url", fake.base_url,
                     "--server", live_server]) == 0
    title, header, rule, *body = capsys.readouterr().out.split("\n\nTrajectories:")[0].splitlines()
    assert title.startswith("Protocol paper:")
    table = Table(header, rule, body[:-1])
    assert table.columns == ["task", "metric", "flat-few-shot", "flat-few-shot (HeaP Fig. 5)", "flat-zero-shot",
                             "flat-zero-shot (HeaP Fig. 5)", "heap-few-shot", "heap-few-shot (HeaP Fig. 5)",
                             "heap-zero-shot", "heap-zero-shot (HeaP Fig. 5)", "step-few-shot", "step-zero-shot"]
    assert [table.cell("TASK_BOOK_FLIGHT", metric, "heap-few-shot (HeaP Fig. 5)")
            for metric in ("success", "progress", "#actions")] == ["0.65 ± 0.15", "0.82 ± 0.05", "22.25 ± 0.90"]
    assert [table.cell("TASK_BOOK_FLIGHT", metric, "heap-few-shot")  # measured: every episode stopped at once
            for metric in ("success", "progress", "#actions")] == ["0.00 ± n/a [0.00, 0.79]", "0.00 ± n/a [0.00, 0.00]",
                                                          "0.0 ± n/a"]
    assert table.cell("TASK_FIND_BOOKING", "#actions", "flat-zero-shot (HeaP Fig. 5)") == "11.00 ± 0.00"
    assert table.cell("TASK_FIND_BOOKING", "crashed", "flat-zero-shot") == "0"
    assert table.cell("TASK_FIND_BOOKING", "crashed", "flat-zero-shot (HeaP Fig. 5)") == ""  # measured only
    assert table.tasks == ["TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "all tasks"]
    assert body[-1].startswith("HeaP Fig. 5 (reported, not measured here): Sodhi et al.")
    assert "text-davinci-003" in body[-1]
    rows = list(csv.DictReader((tmp_path / "summary.csv").open()))
    assert [row["task"] for row in rows] == ["TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "all tasks"] * 6
    assert {row["method"] for row in rows} == {
        "flat-zero-shot", "flat-few-shot", "heap-zero-shot", "heap-few-shot", "step-zero-shot", "step-few-shot"}
    # no reported number in measured rows; a total's Wilson bound of 0 of 2 is z^2 / (2 + z^2) = 3.841459 / 5.841459
    assert not any("0.65" in value for row in rows for key, value in row.items() if not key.endswith(("_low", "_high")))
    assert [row["success_high"] for row in rows if row["task"] == "all tasks"] == ["0.6576"] * 6
    assert main(["summarize", "--out", str(tmp_path), "--reference", "step-fig5"]) == 0
    title, header, rule, *body = capsys.readouterr().out.splitlines()
    table = Table(header, rule, body[:-1])
    assert table.cell("all tasks", "success", "step-few-shot (SteP Fig. 5)") == "0.94"
    assert table.cell("all tasks", "success", "flat-zero-shot (SteP Fig. 5)") == "0.24"
    assert table.cell("all tasks", "success", "step-few-shot") == "0.00 ± 0.00 [0.00, 0.66]"  # two episodes, measured
    assert table.cell("TASK_BOOK_FLIGHT", "success", "step-few-shot (SteP Fig. 5)") == "-"  # not in the text


class Table:
    """The printed paper-layout table, read back by the dashes under its header."""

    def __init__(self, header: str, rule: str, body: list[str]):
        self.starts = [match.start() for match in re.finditer(r"-+", rule)] + [None]
        self.columns = [self._cut(header, i) for i in range(len(self.starts) - 1)]
        self.rows, task = {}, None
        for line in body:
            task = self._cut(line, 0) or task
            self.rows[(task, self._cut(line, 1))] = line
        self.tasks = list(dict.fromkeys(task for task, _ in self.rows))

    def _cut(self, line: str, index: int) -> str:
        return line[self.starts[index]:self.starts[index + 1]].strip()

    def cell(self, task: str, metric: str, column: str) -> str:
        return self._cut(self.rows[(task, metric)], self.columns.index(column))
