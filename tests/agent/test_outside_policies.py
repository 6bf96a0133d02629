"""`--method package.module:Class`: a policy of one's own run from the command line like any
method (the examples/ folder's two, a class from a folder outside the project), what a policy is
given (no gold, no hidden detail, in every suite), and the one-line refusals."""
import csv
import json
import sys
import textwrap
from pathlib import Path

import pytest

from agent.__main__ import main
from agent.env.observation import parse_observation
from agent.experiment.protocols import PROTOCOLS
from scenarios.suites import SUITES
from tests.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = "examples.scripted_policy:ScriptedPolicy"
SCRIPTED_LABEL = "examples.scripted_policy.ScriptedPolicy"
TASKS = "TASK_FIND_BOOKING,TASK_CANCEL_FLIGHT"

RECORDER = '''
from agent.episode.policy import Policy

SEEN = []


class Recorder(Policy):
    def reset(self, scenario):
        SEEN.append(scenario)

    def act(self, observation):
        return "Nothing to do.", "STOP [done]"
'''


@pytest.fixture
def at_root(monkeypatch):
    """Run as a user does, from the repository's root (examples/ is imported from there)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))


@pytest.fixture(scope="module")
def scripted_run(tmp_path_factory, live_server):
    """The scripted example beside the oracle, on the same scenarios, in one run folder."""
    out = tmp_path_factory.mktemp("outside")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        patch.syspath_prepend(str(ROOT))
        assert main(["run", "--method", f"oracle,{SCRIPTED}", "--tasks", TASKS, "--episodes", "2", "--quiet",
                     "--server", live_server, "--out", str(out)]) == 0
    return out


def test_the_scripted_example_runs_to_a_score_with_a_summary_and_a_report(scripted_run):
    rows = {(row["method"], row["task"]): row for row in csv.DictReader((scripted_run / "summary.csv").open())}
    assert float(rows[SCRIPTED_LABEL, "all tasks"]["success_mean"]) == 1.0
    assert rows[SCRIPTED_LABEL, "TASK_CANCEL_FLIGHT"]["episodes"] == "2"
    trajectory = json.loads((scripted_run / SCRIPTED_LABEL / "TASK_CANCEL_FLIGHT" / "seed0-trial0.json").read_text())
    assert trajectory["method"] == SCRIPTED and trajectory["metrics"]["success"] == 1
    assert trajectory["settings"] == {"model": None, "temperature": None, "max_steps": 60, "protocol": "full"}
    assert SCRIPTED_LABEL in (scripted_run / "report" / "index.html").read_text()
    episodes = scripted_run / "report" / "episodes" / SCRIPTED_LABEL
    assert len(list(episodes.glob("*/seed*.html"))) == 4  # a page per episode


def test_the_outside_run_is_compared_ranked_and_resumed(scripted_run, tmp_path, capsys, live_server, at_root):
    capsys.readouterr()
    assert main(["compare", f"{scripted_run}:oracle", f"{scripted_run}:{SCRIPTED_LABEL}"]) == 0
    assert SCRIPTED_LABEL in capsys.readouterr().out
    assert main(["leaderboard", str(scripted_run), "--out", str(tmp_path / "board")]) == 0
    ranked = list(csv.DictReader((tmp_path / "board" / "leaderboard.csv").open()))
    assert {row["label"] for row in ranked} >= {"oracle", SCRIPTED_LABEL}
    played = scripted_run / SCRIPTED_LABEL / "TASK_FIND_BOOKING" / "seed1-trial0.json"
    before = played.stat().st_mtime_ns
    assert main(["run", "--method", SCRIPTED, "--tasks", TASKS, "--episodes", "2", "--quiet", "--no-report",
                 "--server", live_server, "--out", str(scripted_run)]) == 0
    assert played.stat().st_mtime_ns == before  # resumed: nothing left to play


def test_the_llm_example_runs_to_a_score_against_an_openai_compatible_server(tmp_path, live_server, at_root,
                                                                           monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with FakeOpenAIServer(find_booking_model) as fake:
        assert main(["run", "--method", "examples.llm_policy:LLMPolicy", "--tasks", "TASK_FIND_BOOKING",
                     "--episodes", "1", "--quiet", "--no-report", "--server", live_server, "--out", str(tmp_path),
                     "--model", "fake-model", "--base-url", fake.base_url]) == 0
        asked = fake.requests
    trajectory = json.loads((tmp_path / "examples.llm_policy.LLMPolicy" / "TASK_FIND_BOOKING" / "seed0-trial0.json")
                            .read_text())
    assert trajectory["metrics"]["success"] == 1
    assert trajectory["settings"]["model"] == "fake-model"  # uses_model: the model is a setting of its runs
    assert trajectory["usage"]["calls"] == len(asked) == 4 and trajectory["usage"]["prompt_tokens"] > 0
    assert "TYPE <id>" in asked[0]["messages"][0]["content"]  # the action set it was handed


def find_booking_model(request: dict) -> str:
    """A scripted model: find the booking the task names, then stop."""
    user = request["messages"][-1]["content"]
    code = user.split("confirmation code ", 1)[-1][:6] if "confirmation code " in user else ""
    code = code or next(word.strip(".") for word in user.split("TASK:", 1)[1].split() if len(word.strip(".")) == 6)
    done = user.split("YOUR ACTIONS SO FAR:", 1)[1].split("CURRENT PAGE:", 1)[0]
    page = parse_observation(user.split("CURRENT PAGE:", 1)[1])
    if "CLICK Find booking" not in done:
        return "REASON: open the form\nACTION: CLICK Find booking"
    if "TYPE" not in done:
        field = next(e for e in page if e["kind"] == "input" and e["name"] == "Confirmation code")
        return f'REASON: the code\nACTION: TYPE {field["id"]} "{code}"'
    if "CLICK Search" not in done:
        return "REASON: look it up\nACTION: CLICK Search"
    return "REASON: found\nACTION: STOP [found]"


@pytest.mark.parametrize("protocol", list(PROTOCOLS))
def test_an_outside_policy_is_given_no_gold_and_no_hidden_detail(protocol, tmp_path, live_server, monkeypatch):
    task, hidden = PROTOCOLS[protocol].tasks[0], SUITES[PROTOCOLS[protocol].suite].hidden_details
    module = f"recorder_{protocol}"  # a module of its own per test: a method's class is imported once
    (tmp_path / f"{module}.py").write_text(RECORDER)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "run"
    # the operator token is in CRM_OPERATOR_TOKEN: the server hands out everything, the oracle's share too
    assert main(["run", "--method", f"{module}:Recorder", "--protocol", protocol, "--tasks", task,
                 "--episodes", "1", "--quiet", "--no-report", "--server", live_server, "--out", str(out)]) == 0
    (given,) = sys.modules[module].SEEN
    told = {"id", "url", "instruction", "conversation", "actions"} | (set() if hidden else {"scenario"})
    assert set(given) == told
    assert given.get("scenario", task) == task  # the task's name where the suite tells it
    recorded = json.loads((out / f"{module}.Recorder" / task / "seed0-trial0.json").read_text())["scenario"]
    assert recorded["gold_actions"] and recorded["details"]  # what the server gave, and the policy was not
    assert recorded["instruction"] == given["instruction"] and recorded["conversation"] == given["conversation"]
    assert ("SAY" in given["actions"]) == PROTOCOLS[protocol].on_call


def test_a_policy_that_cannot_be_used_gets_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "broken.py").write_text("import no_such_module_anywhere\n")
    (tmp_path / "halfway.py").write_text("from agent.episode.policy import Policy\n\n\n"
                                         "class NoAct(Policy):\n    def reset(self, scenario):\n        pass\n\n\n"
                                         "class Plain:\n    def reset(self, scenario):\n        pass\n\n"
                                         "    def act(self, observation):\n        return '', 'STOP'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    said = {}
    for method in ("broken:Agent", "halfway:Missing", "halfway:NoAct", "halfway:Plain"):
        assert main(["run", "--method", method, "--out", str(tmp_path / "run"), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err
        said[method] = err.strip()
    assert "module broken does not import: ModuleNotFoundError" in said["broken:Agent"]
    assert "module halfway has no Missing" in said["halfway:Missing"]
    assert "NoAct does not follow the policy contract" in said["halfway:NoAct"] and "act()" in said["halfway:NoAct"]
    assert "not a subclass of agent.episode.policy.Policy" in said["halfway:Plain"]
    assert not (tmp_path / "run").exists()
