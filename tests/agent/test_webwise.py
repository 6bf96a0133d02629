"""WebWISE on the real CRM with a scripted model behind the fake OpenAI-compatible server: programs
written page by page over the filtered DOM, marks on what was clicked or changed, few-shot examples
per task, auto-generated examples from successful zero-shot trials only, hostile programs refused
with nothing run; and all five LLM methods run into one table."""
import json

import pytest

from agent.__main__ import main
from agent.experiment.webwise_auto import TRIAL_SEED
from tests.agent.webwise_pages import parse_page
from agent.policies.prompting import load_prompt
from tests.agent import scripted_model as model
from tests.agent.command_line import refusal
from tests.agent.test_policy_tasks import Script, assert_completed
from tests.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.browser


def run_webwise(out, rule, task, server, *extra, label="webwise-zero-shot"):
    script = Script(rule)
    with FakeOpenAIServer(script) as fake:
        main(["run", "--method", "webwise", "--tasks", task, "--episodes", "1", "--out", str(out), "--quiet",
              "--model", "fake-model", "--base-url", fake.base_url, "--server", server, *extra])
    assert script.errors == []
    return json.loads((out / label / task / "seed0-trial0.json").read_text()), fake


def programs(trajectory) -> list[str]:
    return [step["policy"]["program"] for step in trajectory["steps"] if "program" in step["policy"]]


def test_webwise_finds_flights_over_two_programs_with_the_tasks_example(tmp_path, live_server):
    trajectory, fake = run_webwise(tmp_path, model.webwise_rules, "TASK_FIND_FLIGHT", live_server, "--shots", "few",
                                   label="webwise-few-shot")
    assert_completed(trajectory)
    written = programs(trajectory)
    assert len(written) == 2 and len(fake.requests) == 2 and written[1] == "done()"
    assert written[0].splitlines()[-1] == 'click("Search flights")' and len(written[0].splitlines()) == 5
    assert [step["action"].split()[0] for step in trajectory["steps"]] == ["TYPE"] * 4 + ["CLICK", "STOP"]
    system = model.system_text(fake.requests[0])
    assert load_prompt("webwise/find_flight_examples") in system and "(book a return flight)" not in system
    assert trajectory["policy_context"] == {"examples": ["prompts/webwise/find_flight_examples.txt"]}
    first_page = parse_page(trajectory["steps"][0]["policy"]["page"])
    assert {item["tag"] for item in first_page} >= {"h1", "legend", "input_radio", "input_text", "button", "a"}


def test_webwise_updates_passenger_details_and_marks_what_it_changed(tmp_path, live_server):
    trajectory, fake = run_webwise(tmp_path, model.webwise_rules, "TASK_UPDATE_PASSENGER_DETAILS", live_server)
    assert_completed(trajectory)
    written = programs(trajectory)
    assert written[:3] == ['click("Find booking")', f'enter_text({trajectory["steps"][1]["action"].split()[1]}, '
                           f'"{trajectory["scenario"]["details"]["confirmation-code"]}")\nclick("Search")',
                           'click("Modify booking")']
    assert written[3].endswith('click("Save")') and written[4] == "done()" and len(fake.requests) == 5
    last_page = parse_page(trajectory["steps"][-1]["policy"]["page"])
    changed = [item for item in last_page if "changed" in item["flags"]]
    assert len(changed) == written[3].count("enter_text") >= 1
    assert {item["text"] for item in last_page if "clicked" in item["flags"]} == {"Find booking", "Save"}
    assert "Passenger details saved" in {item["text"] for item in last_page}
    history = model.user_text(fake.requests[-1]).split("PROGRAMS YOU HAVE RUN (oldest first):\n", 1)[1]
    assert history.startswith('Program 1:\nclick("Find booking")\nProgram 2:\nenter_text(')


class AlternatingTrials:
    """Episode 1 gives up at once (done() on the search form); every later episode solves the task."""

    def __init__(self):
        self.episodes = 0

    def __call__(self, request):
        if "PROGRAMS YOU HAVE RUN (oldest first):\n(none yet)" in model.user_text(request):
            self.episodes += 1
        return model.program("done()") if self.episodes == 1 else model.webwise_rules(request)


def test_auto_shots_keep_examples_from_successful_trials_only(tmp_path, live_server):
    script = AlternatingTrials()
    trajectory, fake = run_webwise(tmp_path, script, "TASK_FIND_FLIGHT", live_server, "--shots", "auto",
                                   "--auto-trials", "4", label="webwise-auto")
    assert_completed(trajectory)
    trials = sorted((tmp_path / "webwise-auto" / "auto-trials" / "webwise-zero-shot" / "TASK_FIND_FLIGHT").glob("*.json"))
    played = [json.loads(path.read_text()) for path in trials]
    assert [(t["seed"], t["metrics"]["success"]) for t in played] == [
        (TRIAL_SEED, 0), (TRIAL_SEED + 1, 1), (TRIAL_SEED + 2, 1), (TRIAL_SEED + 3, 1)]
    assert all(t["shots"] == "0" for t in played) and script.episodes == 5

    saved = json.loads((tmp_path / "webwise-auto" / "auto-examples.json").read_text())
    chosen = saved["examples"]["TASK_FIND_FLIGHT"]
    assert [e["id"] for e in chosen] == [f"TASK_FIND_FLIGHT/seed{TRIAL_SEED + 1}-trial0",
                                         f"TASK_FIND_FLIGHT/seed{TRIAL_SEED + 2}-trial0"]  # two successes, in seed order
    assert chosen[0]["task"] == played[1]["scenario"]["instruction"]
    assert [p["program"] for p in chosen[0]["programs"]] == programs(played[1])
    assert chosen[0]["programs"][0]["page"] == played[1]["steps"][0]["policy"]["page"]

    assert trajectory["policy_context"] == {"examples": [e["id"] for e in chosen],
                                            "examples_file": str(tmp_path / "webwise-auto" / "auto-examples.json")}
    system = model.system_text(fake.requests[-1])
    assert "Tasks like this one that you solved before" in system and system.count("Example ") == 2
    assert f"TASK: {played[1]['scenario']['instruction']}" in system
    assert played[0]["scenario"]["instruction"] not in system  # the failed trial is no example
    trial_system = model.system_text(fake.requests[0])
    assert "Examples:\n(no examples)" in trial_system  # the trials were zero-shot


def test_hostile_or_malformed_programs_run_nothing_and_end_the_episode_with_the_cause(tmp_path, live_server):
    sentinel = tmp_path / "pwned"
    replies = [f"__import__('os').system('touch {sentinel}')", f"exec(\"open('{sentinel}', 'w')\")",
               f"for _ in range(1):\n    open('{sentinel}', 'w')", f"(lambda: open('{sentinel}', 'w'))()"]
    script = Script(lambda request: replies.pop(0))
    with FakeOpenAIServer(script) as fake:
        main(["run", "--method", "webwise", "--tasks", "TASK_FIND_FLIGHT", "--episodes", "1", "--out", str(tmp_path),
              "--quiet", "--model", "fake-model", "--base-url", fake.base_url, "--server", live_server])
    trajectory = json.loads((tmp_path / "webwise-zero-shot" / "TASK_FIND_FLIGHT" / "seed0-trial0.json").read_text())
    assert not sentinel.exists() and len(fake.requests) == 4
    assert len(trajectory["steps"]) == 1 and trajectory["end"]["cause"] == "policy_halt"
    assert trajectory["end"]["detail"].startswith("4 replies in a row were not acceptable programs; the last: line 1: ")
    problems = trajectory["steps"][0]["policy"]["reply_problems"]
    assert ["is not an API function" in p for p in problems] == [True, True, False, True]
    assert "a for loop is not allowed" in problems[2] and trajectory["metrics"]["success"] == 0
    assert f"Program 1 (rejected, nothing of it ran: {problems[0]})" in model.user_text(fake.requests[1])


def test_calls_that_fail_end_the_episode_at_the_step_limit_with_the_error(tmp_path, live_server):
    trajectory, fake = run_webwise(tmp_path, lambda request: model.program("click(999)", 'click("Search flights")'),
                                   "TASK_FIND_FLIGHT", live_server, "--max-steps", "3")
    assert len(trajectory["steps"]) == 3 and len(fake.requests) == 3  # the click after the failing one never ran
    assert [step["action"] for step in trajectory["steps"]] == ["CLICK 999"] * 3
    assert trajectory["end"]["cause"] == "max_steps" and "no element with id 999" in trajectory["end"]["detail"]
    assert "Program 1 (call 1 failed: CLICK 999 failed: There is no element with id 999" in model.user_text(fake.requests[1])


def every_method_stops(request) -> str:
    """One answer that ends the episode at once, in each method's own reply format."""
    return {"ABSTRACTION": "The search form.", "ACT": "STOP [done]", "WEBWISE": model.program("done()"),
            "PLANNER": "REASON: Nothing to do.\nPLAN:\nSTOP [done]", "STEP": model.reply("Nothing to do.", "RETURN [done]"),
            "FLAT": model.reply("Nothing to do.", "STOP [done]")}[model.model_role(request)]


def test_all_five_llm_methods_run_into_one_table(tmp_path, live_server, capsys):
    with FakeOpenAIServer(Script(every_method_stops)) as fake:
        assert main(["run", "--method", "flat,heap,step,synapse,webwise", "--shots", "0,auto", "--auto-trials", "1",
                     "--tasks", "TASK_FIND_BOOKING", "--episodes", "1", "--out", str(tmp_path), "--quiet",
                     "--model", "fake-model", "--base-url", fake.base_url, "--server", live_server, "--wide"]) == 0
    title, header = capsys.readouterr().out.splitlines()[:2]
    assert title.startswith("Protocol full: six tasks")
    header = header.split()
    labels = ["flat-zero-shot", "heap-zero-shot", "step-zero-shot", "synapse-zero-shot", "webwise-auto",
              "webwise-zero-shot"]
    assert list(dict.fromkeys(word for word in header if "-" in word)) == labels
    for label in labels:
        (path,) = (tmp_path / label / "TASK_FIND_BOOKING").glob("*.json")
        assert json.loads(path.read_text())["end"]["cause"] in ("stop", "policy_halt")
    _, err = refusal(main, ["run", "--method", "flat", "--shots", "auto", "--model", "m"], capsys)
    assert "flat takes --shots 0 or few, not auto" in err
