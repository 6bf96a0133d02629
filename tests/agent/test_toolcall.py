"""`--method toolcall` end to end, without a browser: the scripted tool-calling model of
scripted_tools.py behind the fake OpenAI-compatible server (which refuses malformed tools and tool
messages) completes every task type, one-way and return, scored as API work; every call and its
result is in the trajectory; an error the API answers comes back to the model as a tool result; a
malformed tool call ends the episode cleanly with its cause; the cache replays a run; and the
method's settings are checked."""
from __future__ import annotations

import json

import pytest

from agent.__main__ import main
from scenarios.tasks import TASK_NAMES
from agent.crm.tools import TOOL_NAMES
from tests.agent import scripted_model, scripted_tools
from tests.agent.command_line import refusal
from tests.agent.test_policy_tasks import Script
from tests.fake_openai import FakeOpenAIServer

LABEL = "toolcall-zero-shot"
SEED = 7  # seeds 7 and 8: a return and a one-way trip for each task that has flights (checked below)


def run(out, server, rule, *extra, tasks="all", episodes=1, seed=SEED, method="toolcall"):
    """`python -m agent run --method toolcall`: the exit status, and the requests the model got."""
    script = Script(rule)
    with FakeOpenAIServer(script) as fake:
        status = main(["run", "--method", method, "--tasks", tasks, "--episodes", str(episodes), "--seed", str(seed),
                       "--out", str(out), "--quiet", "--model", "fake-model", "--base-url", fake.base_url,
                       "--server", server, *extra])
        requests = list(fake.requests)
    assert script.errors == []
    return status, requests


def trajectory(out, task, seed=SEED) -> dict:
    return json.loads((out / LABEL / task / f"seed{seed}-trial0.json").read_text())


@pytest.fixture(scope="module")
def every_task(tmp_path_factory, live_server):
    out = tmp_path_factory.mktemp("toolcall")
    status, requests = run(out, live_server, scripted_tools.rule, episodes=2)
    assert status == 0
    return out, requests


def test_toolcall_completes_every_task_type_scored_as_api_work(every_task):
    out, _ = every_task
    trips = set()
    for task in TASK_NAMES:
        for seed in (SEED, SEED + 1):
            episode = trajectory(out, task, seed)
            metrics = episode["metrics"]
            assert (metrics["success"], metrics["task_progress"], metrics["modality"]) == (1, 1.0, "api"), (task, seed)
            assert metrics["matched"] == [True] * len(episode["scenario"]["gold_calls"])
            assert metrics["num_actions"] == len(episode["steps"]) - 1  # every call recorded; the last step answers
            assert episode["end"]["cause"] == "stop" and episode["answer"]
            flight = episode["scenario"]["details"].get("flight")
            if flight:
                trips.add((task, "return" in flight))
    assert trips == {(task, kind) for task in ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_MODIFY_FLIGHT")
                     for kind in (True, False)}


def test_every_call_and_its_result_is_in_the_trajectory(every_task):
    out, _ = every_task
    episode = trajectory(out, "TASK_MODIFY_FLIGHT")
    calls = [step for step in episode["steps"] if "result" in step]
    assert [step["result"]["tool"] for step in calls] == ["get_booking", "search_flights", "change_flights"]
    code = episode["scenario"]["details"]["confirmation-code"]
    first = calls[0]
    assert first["action"] == f'get_booking {{"code": "{code}"}}' and first["result"]["status"] == 200
    assert json.loads(first["result"]["text"])["booking"]["code"] == code
    assert first["policy"]["tool_call"] == {"id": first["policy"]["model_calls"][0]["tool_calls"][0]["id"],
                                            "tool": "get_booking", "arguments": {"code": code}}
    assert [step["metrics"]["task_progress"] for step in calls] == [0.3333, 0.6667, 1.0]
    changed = json.loads(calls[-1]["result"]["text"])["booking"]
    assert [f["number"] for f in changed["flights"]][0] == episode["scenario"]["details"]["flight"]["outward-flight-number"]
    assert episode["steps"][-1]["action"].startswith("STOP [Booking ")
    assert episode["policy_context"]["tools"][:3] == ["search_airports", "search_flights", "get_quote"]
    assert episode["settings"] == {"model": "fake-model", "temperature": 0.3, "max_steps": 60, "protocol": "full",
                                   "tools": list(TOOL_NAMES), "modality": "api"}


def test_token_usage_is_counted_per_step_and_episode(every_task):
    out, _ = every_task
    episode = trajectory(out, "TASK_CANCEL_FLIGHT")
    usage = episode["usage"]
    assert usage["calls"] == 3 and usage["cached_calls"] == 0  # look up, cancel, answer
    assert usage["prompt_tokens"] == sum(step["tokens"]["prompt_tokens"] for step in episode["steps"]) > 0
    assert usage["completion_tokens"] == sum(step["tokens"]["completion_tokens"] for step in episode["steps"]) > 0


def test_the_model_gets_tools_the_conversation_and_the_results_as_tool_messages(every_task):
    out, requests = every_task
    instruction = trajectory(out, "TASK_CANCEL_FLIGHT")["scenario"]["instruction"]
    asked = [r for r in requests if instruction in r["messages"][1]["content"]]
    assert len(asked) == 3
    first, last = asked[0], asked[-1]
    assert first["messages"][0]["role"] == "system" and "The airline's policy" in first["messages"][0]["content"]
    assert [m["role"] for m in last["messages"]] == ["system", "user", "assistant", "tool", "assistant", "tool"]
    assert [t["function"]["name"] for t in first["tools"]] == list(json.loads(json.dumps(
        trajectory(out, "TASK_CANCEL_FLIGHT")["policy_context"]["tools"])))
    assert all("X-Scenario-Id" not in json.dumps(t) and "Idempotency" not in json.dumps(t) for t in first["tools"])
    assert '"status": "Cancelled"' in last["messages"][-1]["content"]


def test_two_tool_calls_in_one_reply_are_run_one_per_step(every_task):
    out, requests = every_task
    episode = trajectory(out, "TASK_UPDATE_PASSENGER_DETAILS")
    assert [step["action"].split()[0] for step in episode["steps"]] == ["get_booking", "update_passenger", "STOP"]
    assert len(episode["steps"][0]["policy"]["model_calls"]) == 1 and episode["steps"][1]["policy"]["model_calls"] == []


def test_an_error_of_the_api_comes_back_to_the_model_as_a_tool_result(every_task):
    out, requests = every_task
    episode = trajectory(out, "TASK_FIND_FLIGHT")
    refused, retried = episode["steps"][0], episode["steps"][1]
    assert refused["result"]["status"] == 400 and refused["error"].startswith("Departure date")
    assert refused["result"]["text"] == f"Error 400: {refused['error']}"
    assert retried["observation"] == refused["result"]["text"]  # what the model read before its next call
    retry_request = next(r for r in requests if r["messages"][1]["content"] == episode["steps"][0]["policy"][
        "model_calls"][0]["user_prompt"] and len(r["messages"]) == 4)
    assert retry_request["messages"][-1] == {"role": "tool", "tool_call_id": retry_request["messages"][2]["tool_calls"][0]["id"],
                                             "content": refused["result"]["text"]}
    assert (episode["metrics"]["success"], episode["metrics"]["num_actions"]) == (1, 2)


@pytest.mark.parametrize("arguments, cause", [
    ({"code": "ABCDEF"}, "the model called 'fly_to_mars', which is not a tool"),
    ('{"code": "ABC', "the arguments of get_booking are not valid JSON"),
    ('["ABCDEF"]', "the arguments of get_booking are not a JSON object"),
])
def test_a_malformed_tool_call_ends_the_episode_cleanly_with_its_cause(tmp_path, live_server, arguments, cause):
    name = "fly_to_mars" if isinstance(arguments, dict) else "get_booking"
    status, requests = run(tmp_path, live_server, lambda request: {"tool_calls": [{"name": name, "arguments": arguments}]},
                           tasks="TASK_FIND_BOOKING")
    assert status == 0 and len(requests) == 1
    episode = trajectory(tmp_path, "TASK_FIND_BOOKING")
    assert episode["complete"] is True and "crash" not in episode
    assert episode["end"]["cause"] == "policy_halt" and episode["end"]["detail"].startswith(f"malformed tool call: {cause}")
    assert [step["action"] for step in episode["steps"]] == [f"STOP [halted: {episode['end']['detail']}]"]
    assert episode["steps"][0]["policy"]["model_calls"][0]["tool_calls"][0]["function"]["name"] == name
    assert (episode["metrics"]["success"], episode["metrics"]["num_actions"], episode["agent_actions"]) == (0, 0, 0)


def test_the_cache_replays_a_toolcall_run_without_a_request(tmp_path, live_server):
    cache = ["--cache-dir", str(tmp_path / "cache")]
    run(tmp_path / "first", live_server, scripted_tools.rule, *cache, tasks="TASK_CANCEL_FLIGHT")
    status, requests = run(tmp_path / "again", live_server, scripted_tools.rule, *cache, tasks="TASK_CANCEL_FLIGHT")
    assert status == 0 and requests == []
    first, again = trajectory(tmp_path / "first", "TASK_CANCEL_FLIGHT"), trajectory(tmp_path / "again", "TASK_CANCEL_FLIGHT")
    assert [s["action"] for s in again["steps"]] == [s["action"] for s in first["steps"]]
    assert again["metrics"]["success"] == 1
    assert (again["usage"]["calls"], again["usage"]["cached_calls"], again["usage"]["prompt_tokens"]) == (3, 3, 0)


@pytest.mark.parametrize("options, message", [
    (["--observations", "som"], "toolcall works the JSON API and sees no page"),
    (["--shots", "few"], "toolcall takes --shots 0, not few"),
    (["--protocol", "paper"], "--protocol paper has no prompts for toolcall"),
])
def test_settings_toolcall_does_not_take_are_refused(tmp_path, capsys, options, message):
    code, err = refusal(main, ["run", "--method", "toolcall", "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                               "--out", str(tmp_path), *options], capsys)
    assert code == 2 and message in err


@pytest.mark.browser
def test_the_table_and_the_report_show_toolcall_beside_a_browser_method_on_the_same_seeds(tmp_path, live_server, capsys):
    def model(request):  # one fake model for both methods: toolcall's requests offer tools
        return scripted_tools.rule(request) if request.get("tools") else scripted_model.flat_find_booking(request)

    status, _ = run(tmp_path, live_server, model, "--wide", tasks="TASK_FIND_BOOKING", episodes=2, method="toolcall,flat")
    assert status == 0
    header, _rule, row, total = capsys.readouterr().out.splitlines()[1:5]
    assert total.startswith("all tasks") and total.count("1.00 ± 0.00") == 4
    assert header.split()[:7] == ["task", "flat-zero-shot", "success", "flat-zero-shot", "progress", "flat-zero-shot",
                                  "#actions"]
    assert "toolcall-zero-shot success" in header and "toolcall-zero-shot #actions" in header
    assert row.split()[:4] == ["TASK_FIND_BOOKING", "1.00", "±", "0.00"] and row.count("1.00 ± 0.00") == 4
    for seed in (SEED, SEED + 1):
        flat = json.loads((tmp_path / "flat-zero-shot" / "TASK_FIND_BOOKING" / f"seed{seed}-trial0.json").read_text())
        tools = trajectory(tmp_path, "TASK_FIND_BOOKING", seed)
        assert flat["scenario"]["instruction"] == tools["scenario"]["instruction"]  # the same scenario
        assert (flat["metrics"]["modality"], tools["metrics"]["modality"]) == ("ui", "api")
        assert (flat["metrics"]["num_actions"], tools["metrics"]["num_actions"]) == (3, 1)  # 3 page events, 1 call
    report = tmp_path / "report"
    page = (report / "episodes" / LABEL / "TASK_FIND_BOOKING" / f"seed{SEED}-trial0.html").read_text()
    assert "<h2>Gold calls</h2>" in page and "call get_booking" in page and "met gold call <b>1</b>" in page
    assert "tool result" in page and "(gold: 1 calls)" in page
    compare = (report / "compare" / "TASK_FIND_BOOKING" / f"seed{SEED}.html").read_text()
    assert "<h3>gold calls</h3>" in compare and "click Find booking" in compare
    assert "met every gold call" in compare and "met every gold step" in compare
