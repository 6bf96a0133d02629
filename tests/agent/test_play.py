"""`python -m agent play` without a browser: the play host driven over HTTP as the page would, the CRM
worked through its own endpoints. A session is a run folder of method `human`: a trajectory per task
with its page events as timed steps, the call, the person's name and consent, /evaluate's answer;
run.json records the person; bad command lines are clear errors."""
from __future__ import annotations

import csv
import datetime as dt
import json
import urllib.parse

import pytest
import requests

from agent.__main__ import main
from agent.crm.client import ScenarioClient
from agent.episode.run_folder import RUN_RECORD
from agent.episode.trajectory import read_trajectory
from agent.experiment.runner import prepare
from agent.play.cli import METHOD, OPTIONS
from agent.play.host import create_host
from agent.play.session import Session
from agent.experiment.runner import episode_spec
from tests.conftest import OPERATOR, OPERATOR_TOKEN

HOST = "http://play.test"
CONSENT = "I agree that my answers are recorded for research."


@pytest.fixture
def session(live_server, tmp_path):
    specs = [episode_spec(METHOD, "TASK_FALSE_CLAIM", seed, 0, "", ("elements",), None) for seed in (1, 2)]
    record = {"argv": ["play"], "options": OPTIONS, "server_url": live_server, "embedded": False,
              "execution": {"backend": "play", "concurrency": 1}, "variants": {}}
    played = Session(prepare(specs, tmp_path / "human-run", OPTIONS),
                     ScenarioClient(live_server, operator_token=OPERATOR_TOKEN), record, CONSENT)
    played.host = HOST
    return played


def _scenario_of(location: str) -> tuple[str, str]:
    """(scenario id, where End call leads) of a CRM page URL the host sent the person to."""
    query = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)
    return query["scenario"][0], query["next"][0]


def _event(server, scenario, seq, action, target, value=None):
    body = {"page": "p1", "seq": seq, "action": action, "target": target, "value": value}
    requests.post(f"{server}/api/events", params={"scenario": scenario}, json=body, timeout=10).raise_for_status()


def _say(server, scenario, text):
    requests.post(f"{server}/api/customer/messages", params={"scenario": scenario}, json={"text": text},
                  timeout=10).raise_for_status()


def _end(server, scenario):
    requests.post(f"{server}/api/customer/end", params={"scenario": scenario}, timeout=10).raise_for_status()


def test_without_agreeing_or_without_a_name_nothing_starts(session):
    host = create_host(session).test_client()
    page = host.get("/").get_data(as_text=True)
    assert CONSENT in page and "I agree" in page and "Your name or id" in page
    refused = host.post("/start", data={"name": "Ada"})
    assert refused.status_code == 400 and "The session starts only once you agree to take part." in refused.get_data(as_text=True)
    nameless = host.post("/start", data={"name": "  ", "agree": "yes"})
    assert nameless.status_code == 400 and "Please enter your name or the id you were given." in nameless.get_data(as_text=True)
    assert host.get("/task/0").headers["Location"] == "/"
    assert not (session.run.out / RUN_RECORD).exists()


def test_a_session_is_a_run_folder_of_method_human_with_timed_steps(session, live_server):
    host = create_host(session).test_client()
    before = dt.datetime.now(dt.timezone.utc)
    assert host.post("/start", data={"name": " Ada L. ", "agree": "yes"}).headers["Location"] == "/task/0"
    scenario, next_url = _scenario_of(host.get("/task/0").headers["Location"])
    assert next_url == f"{HOST}/task/0/done"
    _event(live_server, scenario, 1, "fill", "call-message", "Hello")
    _say(live_server, scenario, "Hello")
    _event(live_server, scenario, 2, "click", "nav-find-booking")

    still_open = host.get("/task/0/done")
    assert still_open.status_code == 409 and "End the call first" in still_open.get_data(as_text=True)
    _end(live_server, scenario)
    assert host.get("/task/0/done").headers["Location"] == "/task/1"
    second, _ = _scenario_of(host.get("/task/1").headers["Location"])
    _end(live_server, second)
    assert host.get("/task/1/done").headers["Location"] == "/results"
    shown = host.get("/results")
    results = shown.get_data(as_text=True)
    shown.close()  # as a server does once the page is out: the session is then over
    assert "Your results, Ada L." in results and "You succeeded in 0 of 2 tasks" in results

    trajectory = read_trajectory(session.run.out / "human" / "TASK_FALSE_CLAIM" / "seed1-trial0.json")
    assert (trajectory.method, trajectory.label, trajectory.shots, trajectory.complete) == ("human", "human", "", True)
    assert trajectory.person == {"name": "Ada L.", "consent": {"agreed": trajectory.person["consent"]["agreed"],
                                                               "text": CONSENT}}
    agreed = dt.datetime.fromisoformat(trajectory.person["consent"]["agreed"])
    assert before - dt.timedelta(seconds=1) <= agreed <= dt.datetime.now(dt.timezone.utc)
    assert [step["action"] for step in trajectory.steps] == ['fill call-message "Hello"', "click nav-find-booking"]
    assert all(step["seconds"] >= 0 for step in trajectory.steps)
    assert trajectory.seconds >= sum(step["seconds"] for step in trajectory.steps) - 0.5
    assert [line["role"] for line in trajectory.call] == ["customer", "agent", "customer"]
    assert trajectory.call[0]["received"] is None and trajectory.call[1]["received"] is not None
    assert trajectory.end == {"cause": "stop", "detail": "the person ended the call"}
    assert trajectory.metrics == requests.get(f"{live_server}/evaluate", params={"scenario": scenario},
                                              headers=OPERATOR, timeout=10).json()
    assert trajectory.settings == {"model": None, "temperature": None, "max_steps": None, "protocol": "hard",
                                   "channel": "page", "scoring_version": 2}
    assert trajectory.scenario["id"] == scenario and trajectory.gold_actions

    record = json.loads((session.run.out / RUN_RECORD).read_text())
    assert record["methods"] == ["human"] and record["outcome"] == "finished"
    assert record["person"] == trajectory.person and record["tasks"] == ["TASK_FALSE_CLAIM"]
    assert session.finished.is_set()
    read_like_an_agents_run(session.run.out, session.run.out.parent)


def read_like_an_agents_run(out, work):
    """report, leaderboard, export and compare take a person's run folder as they take an agent's."""
    assert main(["report", str(out)]) == 0 and "human" in (out / "report" / "index.html").read_text()
    assert main(["leaderboard", f"{out}:human", "--out", str(work / "board")]) == 0
    (row,) = csv.DictReader((work / "board" / "leaderboard.csv").open())
    assert row["label"] == "human" and float(row["seconds_per_task"]) > 0  # the time per task a person took
    assert "<th>seconds per task</th>" in (work / "board" / "index.html").read_text()
    assert main(["export", "run", str(out), "--out", str(work / "dataset")]) == 0
    assert main(["compare", f"{out}:human", f"{work / 'dataset'}", "--out", str(work / "pairs")]) == 0
    assert "human" in (work / "pairs" / "comparison.csv").read_text()


@pytest.mark.parametrize("args, message", [
    (["--tasks", "TASK_NOPE"], "--tasks: Unknown task: TASK_NOPE"),
    (["--tasks", "TASK_FIND_FLIGHT"], "--tasks: TASK_FIND_FLIGHT is not in the hard protocol"),
    (["--consent", "no-such-file.txt"], "--consent: cannot read no-such-file.txt: No such file or directory"),
    (["--seeds", "1,x"], "--seeds takes whole numbers separated by commas, not '1,x'"),
    (["--count", "0"], "--count takes a number of scenarios per task, 1 or more"),
    (["--seeds", "1", "--count", "2"], "argument --count: not allowed with argument --seeds"),
])
def test_a_wrong_command_line_is_a_clear_usage_error(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--out", str(tmp_path / "out"), "--no-open", *args])
    assert stopped.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_an_empty_consent_file_is_refused(capsys, tmp_path):
    (tmp_path / "consent.txt").write_text("  \n")
    with pytest.raises(SystemExit):
        main(["play", "--consent", str(tmp_path / "consent.txt"), "--no-open"])
    assert f"--consent: {tmp_path / 'consent.txt'} is empty" in capsys.readouterr().err
