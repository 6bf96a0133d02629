"""Synapse on the real CRM with a scripted model behind the fake OpenAI-compatible server: an
exemplar memory built from oracle runs (`python -m agent memory build`), retrieval by embeddings
and by BM25, state abstraction recorded next to the raw page, several actions per model call and
the cut after a failing one."""
import csv
import json

import pytest

from agent.__main__ import main
from tests.agent import scripted_model as model
from tests.agent.command_line import refusal
from tests.agent.test_policy_tasks import Script, assert_completed
from tests.fake_openai import FakeOpenAIServer

pytestmark = pytest.mark.browser

MEMORY_TASKS = ("TASK_BOOK_FLIGHT", "TASK_CANCEL_FLIGHT", "TASK_FIND_BOOKING")


@pytest.fixture(scope="module")
def memory_dir(tmp_path_factory, live_server):
    """Two oracle episodes per task (seeds 10, 11), abstracted and embedded into a memory."""
    base = tmp_path_factory.mktemp("synapse")
    main(["run", "--method", "oracle", "--tasks", ",".join(MEMORY_TASKS), "--episodes", "2", "--seed", "10",
          "--out", str(base / "oracle"), "--quiet", "--server", live_server])
    script = Script(model.synapse_abstraction)
    with FakeOpenAIServer(script) as fake:
        assert main(["memory", "build", "--from", str(base / "oracle"), "--out", str(base / "memory"), "--model",
                     "fake-model", "--base-url", fake.base_url, "--embedding-model", "fake-embedding", "--quiet"]) == 0
    assert script.errors == [] and len(fake.embedding_requests) == 1
    assert all(model.model_role(r) == "ABSTRACTION" for r in fake.requests)
    return base / "memory"


def run_synapse(out, rule, task, server, *extra):
    script = Script(rule)
    with FakeOpenAIServer(script) as fake:
        main(["run", "--method", "synapse", "--tasks", task, "--episodes", "1", "--out", str(out), "--quiet",
              "--model", "fake-model", "--base-url", fake.base_url, "--server", server, *extra])
    assert script.errors == []
    label = "synapse-few-shot" if "few" in extra else "synapse-zero-shot"
    return json.loads((out / label / task / "seed0-trial0.json").read_text()), fake


def act_requests(fake) -> list[dict]:
    return [r for r in fake.requests if model.model_role(r) == "ACT"]


def test_synapse_books_a_flight_with_exemplars_retrieved_by_embeddings(tmp_path, live_server, memory_dir):
    trajectory, fake = run_synapse(tmp_path, model.synapse_book, "TASK_BOOK_FLIGHT", live_server, "--shots", "few",
                                   "--memory", str(memory_dir), "--embedding-model", "fake-embedding")
    assert_completed(trajectory)
    memory = json.loads((memory_dir / "memory.json").read_text())
    booked = [e for e in memory["exemplars"] if e["task_type"] == "TASK_BOOK_FLIGHT"]
    context = trajectory["policy_context"]
    assert context["retriever"] == "embeddings (fake-embedding)" and context["task_type"] == "TASK_BOOK_FLIGHT"
    assert len(context["top_k"]) == 3 and sorted(context["exemplars"]) == sorted(e["id"] for e in booked)

    # Every act prompt holds the two retrieved trajectories (whole: task, states, actions, STOP), no other.
    systems = {model.system_text(r) for r in act_requests(fake)}
    (system,) = systems
    assert system.count("\nExemplar ") == 2 and "(TASK_CANCEL_FLIGHT)" not in system
    for exemplar in booked:
        assert f"TASK: {exemplar['task']}\nSTATE:\n{exemplar['turns'][0]['state']}\nACTIONS:\n" in system
        assert exemplar["turns"][-1]["actions"] == ["STOP [done]"]

    # Several actions per call: one call for the whole search form, one for the flights, ...
    asked = [step for step in trajectory["steps"] if step["policy"]["model_calls"]]
    assert [len(step["policy"]["actions"]) for step in asked] == [5, 3, 7, 5, 1]
    assert len(act_requests(fake)) == 5 and len(trajectory["steps"]) == 21
    for step in asked:  # the abstracted state is recorded beside the raw page, and is a part of it
        state_lines = step["policy"]["state"].splitlines()[1:]
        assert state_lines and set(state_lines) < set(step["observation"].splitlines())
    second = model.user_text(act_requests(fake)[1])
    assert second.startswith(f"Continue this trajectory with the ACTIONS for its last STATE.\n\nTASK: "
                             f"{trajectory['scenario']['instruction']}\nSTATE:\n")
    assert "\n".join(asked[0]["policy"]["actions"]) in second and second.endswith("\nACTIONS:")

    # The memory's keys were embedded when it was built: the run embeds only its query.
    assert trajectory["usage"]["embedding_calls"] == 1 and len(fake.embedding_requests) == 1
    row, total = csv.DictReader((tmp_path / "summary.csv").open())
    assert total == {**row, "task": "all tasks"}  # one task: the total over tasks is its row
    assert int(row["embedding_tokens"]) == fake.usage["embedding_tokens"] > 0


def test_synapse_cancels_with_bm25_and_drops_the_actions_after_a_failed_one(tmp_path, live_server, memory_dir,
                                                                             monkeypatch):
    monkeypatch.delenv("OPENAI_EMBEDDING_MODEL", raising=False)
    trajectory, fake = run_synapse(tmp_path, model.SynapseCancel(), "TASK_CANCEL_FLIGHT", live_server, "--shots", "few",
                                   "--memory", str(memory_dir))
    assert_completed(trajectory)  # the dropped Confirm click never reached the page
    context = trajectory["policy_context"]
    assert context["retriever"].startswith("bm25 (bm25s ") and context["task_type"] == "TASK_CANCEL_FLIGHT"
    assert fake.embedding_requests == [] and trajectory["usage"]["embedding_tokens"] == 0

    steps = trajectory["steps"]
    failed = next(i for i, step in enumerate(steps) if step["error"])
    assert steps[failed]["action"].startswith("TYPE 9999 ") and steps[failed]["policy"]["actions"][1].startswith("CLICK ")
    dropped = steps[failed]["policy"]["actions"][1]
    assert steps[failed + 1]["policy"]["cut"] == {"error": steps[failed]["error"], "dropped": [dropped]}
    assert steps[failed + 1]["action"].startswith("TYPE ") and steps[failed + 2]["action"] == dropped
    after = model.user_text(act_requests(fake)[-2])  # the call right after the failure
    assert f"ACTIONS:\n{steps[failed]['action']}\nSTATE:\nERROR: {steps[failed]['error']}\n" in after
    assert [len(s["policy"]["actions"]) for s in steps if "actions" in s["policy"]] == [1, 2, 1, 2, 2, 1]


def test_zero_shot_synapse_has_no_exemplars_and_malformed_replies_end_at_the_step_limit(tmp_path, live_server):
    rule = lambda request: model.synapse_abstraction(request) if model.model_role(request) == "ABSTRACTION" else ""  # noqa: E731
    trajectory, fake = run_synapse(tmp_path, rule, "TASK_FIND_FLIGHT", live_server, "--max-steps", "3")
    assert trajectory["policy_context"] == {"retriever": "none (zero-shot)"}
    assert len(trajectory["steps"]) == 3 and trajectory["end"]["cause"] == "max_steps"
    assert "Empty action" in trajectory["end"]["detail"] and trajectory["metrics"]["success"] == 0
    assert all(s["policy"]["reply_problem"] == "the reply has no action lines" for s in trajectory["steps"])
    act, abstraction = act_requests(fake)[0], fake.requests[0]
    assert "Trajectories of tasks solved before:\n(no examples)" in model.system_text(act)
    assert "Example 1 (book a return flight: the empty search form)" in model.system_text(abstraction)
    assert "(no action could be read from the reply)\nSTATE:\nERROR: Cannot use ''" in model.user_text(act_requests(fake)[1])


def test_few_shot_synapse_needs_a_memory(capsys, tmp_path):
    code, err = refusal(main, ["run", "--method", "synapse", "--shots", "few", "--model", "m", "--base-url", "http://127.0.0.1:9",
                               "--out", str(tmp_path)], capsys)
    assert code == 2 and "pass --memory MEMORY_DIR" in err
