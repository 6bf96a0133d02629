"""The LLM policies against the real CRM in Chromium, with the model replaced by a fake
OpenAI-compatible server: scripted replies go through the real openai client path."""
import csv
import json

import pytest

from agent.__main__ import main
from agent.policies import make_policy
from tests.agent import scripted_model as model
from tests.agent.command_line import refusal
from tests.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.browser


def run_cli(out, server, method, task, *extra):
    main(["run", "--method", method, "--tasks", task, "--episodes", "1", "--out", str(out), "--quiet",
          "--model", "fake-model", "--base-url", server.base_url, *extra])
    label = f"{method}-few-shot" if "few" in extra else f"{method}-zero-shot"
    return json.loads((out / label / task / "seed0-trial0.json").read_text())


def test_flat_completes_a_flight_search_and_counts_tokens(tmp_path, live_server):
    with FakeOpenAIServer(model.flat_search_flight) as fake:
        trajectory = run_cli(tmp_path / "run", fake, "flat", "TASK_FIND_FLIGHT", "--server", live_server,
                             "--shots", "few", "--cache-dir", str(tmp_path / "cache"))
    assert trajectory["metrics"]["success"] == 1 and trajectory["end"]["cause"] == "stop"
    assert trajectory["settings"] == {"model": "fake-model", "temperature": 0.3, "max_steps": 60, "protocol": "full"}
    first = trajectory["steps"][0]
    assert first["reason"] and first["action"].startswith("TYPE ") and first["policy"]["stack"] == ["FLAT"]
    assert first["policy"]["prompt_chars"] > 1000 and first["tokens"]["prompt_tokens"] > 0
    assert "Example 1" in fake.requests[0]["messages"][0]["content"]  # --shots few
    assert fake.requests[0]["temperature"] == 0.3 and fake.requests[0]["model"] == "fake-model"
    assert "TYPE" in model.user_text(fake.requests[1]).split("CURRENT PAGE:")[0]  # history of actions
    row, total = csv.DictReader((tmp_path / "run" / "summary.csv").open())
    assert total == {**row, "task": "all tasks"}  # one task: the total over tasks is its row
    assert int(row["prompt_tokens"]) == fake.usage["prompt_tokens"] > 0
    assert int(row["completion_tokens"]) == fake.usage["completion_tokens"] > 0
    assert sum(s["tokens"]["prompt_tokens"] for s in trajectory["steps"]) == fake.usage["prompt_tokens"]


def test_a_second_run_is_served_from_the_cache(tmp_path, live_server):
    cache = str(tmp_path / "cache")
    with FakeOpenAIServer(model.flat_search_flight) as fake:
        first = run_cli(tmp_path / "a", fake, "flat", "TASK_FIND_FLIGHT", "--server", live_server, "--cache-dir", cache)
    with FakeOpenAIServer([]) as silent:
        again = run_cli(tmp_path / "b", silent, "flat", "TASK_FIND_FLIGHT", "--server", live_server, "--cache-dir", cache)
    assert silent.requests == [] and len(fake.requests) > 0
    assert [s["action"] for s in again["steps"]] == [s["action"] for s in first["steps"]]
    assert again["metrics"]["success"] == 1 and again["usage"]["cached_calls"] == len(fake.requests)


@pytest.mark.parametrize("script, error", [
    (lambda request: "I think I should search for flights first.", "Empty action"),
    (lambda request: model.reply("Click it.", "CLICK 999"), "no element with id 999"),
])
def test_malformed_replies_end_at_the_step_limit_with_the_cause(tmp_path, live_server, script, error):
    with FakeOpenAIServer(script) as fake:
        trajectory = run_cli(tmp_path, fake, "flat", "TASK_FIND_FLIGHT", "--server", live_server, "--max-steps", "3")
    assert len(trajectory["steps"]) == 3 and len(fake.requests) == 3
    assert trajectory["end"]["cause"] == "max_steps" and error in trajectory["end"]["detail"]
    assert error in model.user_text(fake.requests[1])  # the model is shown its error
    assert trajectory["metrics"]["success"] == 0


def test_unknown_shots_value_is_refused(capsys):
    with pytest.raises(ValueError, match="shots"):
        make_policy("flat", shots="3", api_key="k")
    _, err = refusal(main, ["run", "--method", "flat", "--shots", "3", "--model", "m"], capsys)
    assert "--shots takes 0, few or 0,few (webwise also auto); not '3'" in err


def test_the_llm_methods_need_a_model_name(capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_MODEL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    code, err = refusal(main, ["run", "--method", "oracle,heap", "--tasks", "TASK_FIND_FLIGHT", "--out", "unused"],
                        capsys)
    assert code == 2
    assert "need a model: pass --model NAME or set OPENAI_MODEL" in err


def test_zero_and_few_shot_runs_of_a_method_are_separate_columns(tmp_path, live_server, capsys):
    with FakeOpenAIServer(model.flat_search_flight) as fake:
        main(["run", "--method", "flat,oracle", "--shots", "0,few", "--tasks", "TASK_FIND_FLIGHT",
              "--episodes", "1", "--out", str(tmp_path), "--quiet", "--model", "fake-model",
              "--base-url", fake.base_url, "--server", live_server, "--temperature", "0", "--wide"])
    title, header = capsys.readouterr().out.splitlines()[:2]
    assert title.startswith("Protocol full: six tasks")
    header = header.split()
    assert list(dict.fromkeys(w for w in header if w in ("flat-few-shot", "flat-zero-shot", "oracle"))) == [
        "flat-few-shot", "flat-zero-shot", "oracle"]
    assert header.count("flat-zero-shot") == header.count("oracle") == 7  # 3 metrics, 2 token, 2 status columns
    few = json.loads((tmp_path / "flat-few-shot" / "TASK_FIND_FLIGHT" / "seed0-trial0.json").read_text())
    zero = json.loads((tmp_path / "flat-zero-shot" / "TASK_FIND_FLIGHT" / "seed0-trial0.json").read_text())
    assert (few["method"], few["shots"], zero["shots"]) == ("flat", "few", "0")
    assert few["settings"]["temperature"] == zero["settings"]["temperature"] == 0.0
    assert few["metrics"]["success"] == zero["metrics"]["success"] == 1
    systems = {request["messages"][0]["content"] for request in fake.requests}
    assert {request["temperature"] for request in fake.requests} == {0}
    assert len(systems) == 2 and sum("Example 1" in system for system in systems) == 1
    rows = {(row["method"], row["task"]): row for row in csv.DictReader((tmp_path / "summary.csv").open())}
    assert set(rows) == {(label, task) for label in ("flat-few-shot", "flat-zero-shot", "oracle")
                         for task in ("TASK_FIND_FLIGHT", "all tasks")}
    assert rows[("oracle", "TASK_FIND_FLIGHT")]["shots"] == rows[("oracle", "all tasks")]["shots"] == ""


def test_step_cancels_a_booking_through_pushes_and_pops(tmp_path, live_server):
    with FakeOpenAIServer(model.step_cancel) as fake:
        trajectory = run_cli(tmp_path, fake, "step", "TASK_CANCEL_FLIGHT", "--server", live_server)
    assert trajectory["metrics"]["success"] == 1 and trajectory["end"]["cause"] == "stop"
    stacks = [step["policy"]["stack"] for step in trajectory["steps"]]
    code = trajectory["scenario"]["details"]["confirmation-code"]
    assert [s[-1].split()[0] for s in stacks[:-1]] == ["FIND_BOOKING"] * 3 + ["CANCEL_BOOKING"] * 3
    assert all(s[0].startswith("CRM [") for s in stacks) and stacks[-1] == [stacks[0][0]]
    assert stacks[0][1] == f"FIND_BOOKING [{code}]"
    callers = [call["policy"] for step in trajectory["steps"] for call in step["policy"]["model_calls"]]
    assert callers[:2] == ["CRM", "FIND_BOOKING"] and "CANCEL_BOOKING" in callers


def test_step_books_a_flight_with_nested_calls(tmp_path, live_server):
    with FakeOpenAIServer(model.step_book) as fake:
        trajectory = run_cli(tmp_path, fake, "step", "TASK_BOOK_FLIGHT", "--server", live_server)
    assert trajectory["metrics"]["success"] == 1, trajectory["end"]
    depths = {len(step["policy"]["stack"]) for step in trajectory["steps"]}
    assert depths == {1, 2, 3}  # CRM alone, CRM > policy, CRM > PASSENGER_DETAILS > FILL_TEXT
    assert any(s["policy"]["stack"][1:] == ["PASSENGER_DETAILS [as in the task]", "FILL_TEXT [First name: "
               + trajectory["scenario"]["details"]["passenger"]["firstname"] + "]"] for s in trajectory["steps"])


def test_an_endless_self_call_ends_the_episode_with_the_cause(tmp_path, live_server):
    with FakeOpenAIServer(lambda request: model.reply("Delegate.", "CALL CRM [the same task again]")) as fake:
        trajectory = run_cli(tmp_path, fake, "step", "TASK_FIND_FLIGHT", "--server", live_server)
    assert len(trajectory["steps"]) == 1 and trajectory["end"]["cause"] == "policy_halt"
    assert "deeper than 5" in trajectory["end"]["detail"] and len(fake.requests) == 5
    assert trajectory["metrics"]["success"] == 0


def test_heap_plans_and_runs_low_level_policies_for_a_flight_search(tmp_path, live_server):
    with FakeOpenAIServer(model.heap_search_flight) as fake:
        trajectory = run_cli(tmp_path, fake, "heap", "TASK_FIND_FLIGHT", "--server", live_server, "--shots", "few")
    assert trajectory["metrics"]["success"] == 1 and trajectory["end"]["cause"] == "stop"
    stacks = [step["policy"]["stack"] for step in trajectory["steps"]]
    assert stacks[0][0] == "PLANNER" and stacks[0][1].startswith('FILL_TEXT From "')
    assert stacks[-2] == ["PLANNER", "CLICK Search flights"] and stacks[-1] == ["PLANNER"]
    assert trajectory["steps"][0]["policy"]["plan"][-1] == "CLICK Search flights"
    callers = {call["policy"] for step in trajectory["steps"] for call in step["policy"]["model_calls"]}
    assert callers == {"PLANNER", "FILL_TEXT", "CHOOSE_DATE"}


def test_a_refused_model_stops_the_run_and_the_same_command_resumes_it(tmp_path, live_server, capsys):
    command = ["run", "--method", "flat", "--tasks", "TASK_FIND_FLIGHT", "--episodes", "3", "--out", str(tmp_path),
               "--quiet", "--model", "fake-model", "--server", live_server, "--concurrency", "2"]
    with FakeOpenAIServer(lambda request: {"status": 401, "error": "Incorrect API key provided"}) as refusing:
        assert main([*command, "--base-url", refusing.base_url]) == 1
    assert len(refusing.requests) <= 2  # one per worker, then the run stops: no retry, no other episode
    assert "The run stopped: The API key was refused" in capsys.readouterr().err
    crashed = [json.loads(p.read_text()) for p in tmp_path.glob("flat-zero-shot/*/*.json")]
    assert crashed and all(not t["complete"] and "Incorrect API key" in t["crash"] for t in crashed)
    with FakeOpenAIServer(model.flat_search_flight) as working:
        assert main([*command, "--base-url", working.base_url]) == 0
    finished = [json.loads(p.read_text()) for p in tmp_path.glob("flat-zero-shot/*/*.json")]
    assert len(finished) == 3 and all(t["metrics"]["success"] == 1 for t in finished)


def test_a_call_of_an_unknown_policy_is_shown_to_the_model_and_the_episode_ends_at_its_limit(tmp_path, live_server):
    with FakeOpenAIServer(lambda request: model.reply("Book a hotel.", "CALL BOOK_HOTEL [Paris]")) as fake:
        trajectory = run_cli(tmp_path, fake, "step", "TASK_FIND_FLIGHT", "--server", live_server)
    assert len(trajectory["steps"]) == 1 and trajectory["end"]["cause"] == "policy_halt"
    assert trajectory["end"]["detail"] == "8 model calls in one step without a page action"
    assert len(fake.requests) == 8 and trajectory["metrics"]["success"] == 0
    assert "CALL BOOK_HOTEL [Paris] (error: there is no policy BOOK_HOTEL" in model.user_text(fake.requests[1])


def test_heap_skips_plan_steps_of_unknown_policies_and_ends_at_its_limit(tmp_path, live_server):
    with FakeOpenAIServer(lambda request: "REASON: Plan.\nPLAN:\nBOOK_HOTEL Paris") as fake:
        trajectory = run_cli(tmp_path, fake, "heap", "TASK_FIND_FLIGHT", "--server", live_server)
    assert trajectory["end"]["cause"] == "policy_halt" and trajectory["metrics"]["success"] == 0
    assert "model calls in one step without a page action" in trajectory["end"]["detail"]
    assert "BOOK_HOTEL Paris (skipped: no policy BOOK_HOTEL)" in model.user_text(fake.requests[1])
