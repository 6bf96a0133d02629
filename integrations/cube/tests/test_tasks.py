"""AirlineCRM's tasks through CUBE's task API: reset, step with the agent's actions, evaluate."""
import threading

import pytest
from cube.core import Action
from cube_chat_tool import ChatTool

from agent.crm.client import ScenarioClient
from airlinecrm_cube.benchmark import AirlineCrmBenchmarkConfig
from scenarios.app import embedded_server
from scenarios.customer.simulator import HOLDING

from cube_helpers import FULL, HARD, play_gold_steps


def text_of(obs) -> str:
    return obs.to_markdown()


@pytest.mark.parametrize("task_id", [f"full.{t}" for t in FULL] + [f"hard.{t}" for t in HARD])
def test_every_full_and_hard_task_is_solved_by_its_gold_steps(make_task, task_id):
    task = make_task(task_id, seed=1, gold_step=True)
    obs, info = task.reset()
    assert task._scenario["instruction"] in text_of(obs) and info["seed"] == 1
    out = play_gold_steps(task)
    assert (out.done, out.reward) == (True, 1.0)
    # A hard task is done on success, which may come before its closing line to the customer (a line
    # that is met only when said, since issue 53): every page step of the gold path was walked.
    walked = [met for met, step in zip(out.info["matched"], task._scenario["gold_actions"])
              if step["action"] not in ("say", "transfer")]
    assert out.info["success"] and out.info["state_check"]["passed"] and walked and all(walked)


@pytest.mark.parametrize("task_id", ["expert.name-change-cancel-quote", "expert.move-or-cancel-book",
                                     "expert.change-cancel-supervisor-mixed"])
def test_expert_templates_are_solved_by_their_gold_steps_request_by_request(make_task, task_id):
    task = make_task(task_id, seed=0, gold_step=True)
    obs, info = task.reset()
    assert task._scenario["conversation"][0]["text"] in text_of(obs) and info["suite"] == "expert"
    out = play_gold_steps(task)
    assert (out.done, out.reward) == (True, 1.0) and all(request["ok"] for request in out.info["requests"])


@pytest.mark.parametrize("task_id", ["full.cancel-flight", "hard.policy-cancel", "expert.change-cancel"])
def test_a_task_that_does_nothing_gets_nothing(make_task, task_id):
    task = make_task(task_id)
    task.reset()
    out = task.step(Action(name="final_step", arguments={}))
    assert (out.done, out.reward) == (True, 0.0)
    assert out.info["num_actions"] == 0 and not out.info["success"]


def test_a_hard_tasks_chat_line_gets_the_customers_reply_as_the_next_message(make_task):
    task = make_task("hard.policy-cancel")
    obs, _ = task.reset()
    opening = task._scenario["conversation"][0]["text"]
    assert f"The customer says: {opening}" in text_of(obs) and "send_message" in text_of(obs)
    assert "details" not in task._info()  # the customer's facts are not the agent's
    out = task.step(Action(name="send_message", arguments={"text": "Could I have your confirmation code, please?"}))
    messages = task._find(ChatTool).messages
    assert [m["role"] for m in messages] == ["assistant", "user"]
    code = task._scenario["gold_actions"][2]["value"]
    assert code in messages[1]["message"] and code in text_of(out.obs)
    assert not out.done
    reward, info = task.evaluate()
    assert reward == 0.0 and info["said_ok"] is False and info["policy_violations"] == 0
    # report_infeasible transfers the call: the customer holds, and the task is done
    out = task.step(Action(name="report_infeasible", arguments={"reason": "The customer wants a supervisor."}))
    assert out.done and task._find(ChatTool).messages[-1]["message"] == HOLDING
    assert out.info["transferred"]


def test_cubes_browser_actions_are_recorded_and_scored(make_task):
    """An agent of CUBE's own browser tool (CSS selectors from the pruned HTML) solves a task."""
    task = make_task("full.find-booking", seed=2)
    obs, _ = task.reset()
    assert 'data-testid="find-code"' in text_of(obs)
    code = task._scenario["gold_actions"][1]["value"]
    steps = [Action(name="browser_click", arguments={"selector": '[data-testid="nav-find-booking"]'}),
             Action(name="browser_type", arguments={"selector": "#find-code", "text": code}),
             Action(name="browser_click", arguments={"selector": '[data-testid="find-submit"]'})]
    outs = [task.step(step) for step in steps]
    assert [out.done for out in outs] == [False, False, True] and outs[-1].reward == 1.0
    assert code in text_of(outs[-1].obs) and outs[-1].info["num_actions"] == 3


def test_the_paper_tasks_reset_with_the_paper_suites_page(make_task):
    # one task at a time: a thread holds one Playwright, as in CUBE's own browser tool
    task = make_task("paper.book-flight", seed=4)
    text = text_of(task.reset()[0])
    assert "the flight departing at" in text  # the paper suite's instruction: flights by their times
    assert _title_is_radio(task)  # its passenger form: Title and Gender as radio buttons
    task.close()
    task = make_task("full.book-flight", seed=4)
    task.reset()
    assert not _title_is_radio(task)  # a select on the full suite's page


def _title_is_radio(task) -> bool:
    return task._browser.page.evaluate("() => !!document.querySelector('input[type=radio][name*=title]')")


def test_the_call_on_the_page_channel(make_task):
    task = make_task("hard.policy-cancel", channel="page", gold_step=True)
    obs, info = task.reset()
    names = [action.name for action in task.action_set]
    assert "send_message" not in names and "browser_click" in names and info["channel"] == "page"
    assert "The customer says" not in text_of(obs)  # the briefing alone: the call is on the page
    out = play_gold_steps(task)
    assert (out.done, out.reward) == (True, 1.0)
    transcript = task._browser.page.evaluate("() => document.querySelector('[data-call] [role=log]').innerText")
    assert "is cancelled" in transcript  # the gold lines went through the Call panel


def test_tasks_reset_side_by_side_on_scenarios_of_their_own(benchmark):
    """Two workers (threads, each with its own Playwright), the same task and seed: equal first
    observations, screenshots included, on scenarios of their own."""
    config = next(AirlineCrmBenchmarkConfig().subset_from_list(["hard.fare-question"]).get_task_configs())
    seen = [None, None]

    def work(i):
        task = config.make(runtime_context=benchmark._runtime_context)
        try:
            seen[i] = task.reset()[0].model_dump(), task._scenario["id"]
        finally:
            task.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    [thread.start() for thread in threads]
    [thread.join() for thread in threads]
    assert seen[0][0] == seen[1][0] and seen[0][1] != seen[1][1]


def test_a_running_crm_by_its_url_and_operator_token():
    with embedded_server() as server:
        token = server.app.config.get("OPERATOR_TOKEN")
        config = AirlineCrmBenchmarkConfig(server_url=server.url + "/", operator_token=token, gold_step=True)
        with config.make() as benchmark:
            assert benchmark._runtime_context == {"crm_url": server.url, "operator_token": token}
            task = next(config.subset_from_list(["full.find-booking"]).get_task_configs()).make(benchmark._runtime_context)
            try:
                task.reset()
                assert play_gold_steps(task).reward == 1.0
                assert ScenarioClient(server.url, operator_token=token).evaluate(task._scenario["id"])["success"]
            finally:
                task.close()


def test_a_crm_that_cannot_be_reached_is_named():
    with pytest.raises(Exception, match="http://127.0.0.1:9/? cannot be used"):
        AirlineCrmBenchmarkConfig(server_url="http://127.0.0.1:9").make()
