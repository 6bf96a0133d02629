"""`python -m agent run --protocol hard`: the prompts tell the model how to speak to the customer and
give it the airline's policy; flat (in Chromium) and toolcall (the JSON API, with message_customer)
work a hard scenario through the real openai client path against the fake OpenAI-compatible server,
and their trajectories, summary and scores carry the call."""
import csv
import json
import re

import pytest

from agent.__main__ import main
from agent.env.api_env import ApiEnv
from agent.policies import make_policy
from agent.policies.prompting import task_text
from tests.agent import scripted_model as model
from tests.agent.scripted_tools import answered, call, calls, made_calls
from tests.fake_openai import FakeOpenAIServer

VERIFY = "Could you give me your confirmation code and the passenger's date of birth, please?"


def run(out, fake, server, method, seed):
    status = main(["run", "--method", method, "--protocol", "hard", "--tasks", "TASK_POLICY_CANCEL", "--episodes",
                   "1", "--seed", str(seed), "--out", str(out), "--quiet", "--model", "fake-model", "--base-url",
                   fake.base_url, "--server", server])
    assert status == 0
    return json.loads((out / f"{method}-zero-shot" / "TASK_POLICY_CANCEL" / f"seed{seed}-trial0.json").read_text())


def flat_refusing(request: dict) -> str:
    """Verify the caller, then refuse as the policy says (seed 2 draws a Basic fare), then stop."""
    said = len(re.findall(r"^\d+\. SAY", model.user_text(request), re.M))
    if said == 0:
        return model.reply("Verify the caller first.", f'SAY "{VERIFY}"')
    if said == 1:
        return model.reply("A Basic fare cannot be cancelled.",
                           'SAY "I\'m sorry: the policy does not allow cancelling a Basic fare, so I can\'t cancel it."')
    return model.reply("Told the customer why.", "STOP [refused: Basic fare]")


@pytest.mark.browser
def test_flat_on_a_call_is_told_the_policy_and_say_and_refuses_as_the_policy_says(tmp_path, live_server):
    with FakeOpenAIServer(flat_refusing) as fake:
        trajectory = run(tmp_path / "run", fake, live_server, "flat", 2)
    first = model.user_text(fake.requests[0])
    assert "THE AIRLINE'S POLICY:" in first and "| Basic | not allowed | not allowed, no refund |" in first
    assert 'SAY "<text>"' in first and "CUS: " in first and "CURRENT PAGE:\nCUSTOMER: " in first
    assert model.user_text(fake.requests[1]).count("CUSTOMER: My confirmation code is ") == 1
    assert trajectory["steps"][0]["customer"].startswith("My confirmation code is ")  # the call, step by step
    assert "customer" not in trajectory["steps"][2]
    page = next((tmp_path / "run" / "report" / "episodes").rglob("*.html")).read_text()
    assert '<p class="customer"><b>customer</b> My confirmation code is ' in page and "said_ok yes" in page
    metrics = trajectory["metrics"]
    assert (metrics["success"], metrics["said_ok"], metrics["verified_first"], metrics["policy_violations"]) == \
        (1, True, True, 0)
    assert trajectory["settings"]["protocol"] == "hard"
    hidden = trajectory["scenario"]["details"]["customer"]  # the trajectory keeps them; the model is not told
    assert not any(str(hidden[fact]) in first for fact in ("confirmation_code", "date_of_birth", "email"))
    row, total = csv.DictReader((tmp_path / "run" / "summary.csv").open())
    assert total == {**row, "task": "all tasks"}  # one task: the total over tasks is its row
    assert (row["success_mean"], row["said_ok_rate"], row["under_policy_rate"], row["policy_violations"]) == \
        ("1.0", "1.0", "1.0", "0")
    (episode,) = list(csv.DictReader((tmp_path / "run" / "episodes.csv").open()))
    assert {key: episode[key] for key in ("seed", "success", "state_ok", "said_ok", "verified_first",
                                          "policy_violations")} == \
        {"seed": "2", "success": "1", "state_ok": "1", "said_ok": "1", "verified_first": "1", "policy_violations": "0"}


def toolcall_cancelling(request: dict) -> dict | str:
    """Verify over message_customer, look the booking up, cancel it, tell the refund (seed 0: Flex)."""
    made = [name for name, _arguments, _text in made_calls(request)]
    if not made:
        return calls(call("message_customer", text=VERIFY))
    if made == ["message_customer"]:
        reply = made_calls(request)[0][2]
        code = re.search(r"confirmation code is ([A-Z0-9]{6})", reply).group(1)
        return calls(call("get_booking", code=code))
    booking = answered(request, "get_booking")["booking"]
    if "cancel_booking" not in made:
        return calls(call("cancel_booking", code=booking["code"], confirmation_code=booking["code"]))
    if made.count("message_customer") == 1:
        amount = booking["cancellation"]["amount"]
        return calls(call("message_customer", text=f"Your booking is cancelled; ${amount} will be refunded."))
    return "Cancelled and refunded."


def test_toolcall_on_a_call_speaks_with_message_customer_and_books_fares(tmp_path, live_server):
    with FakeOpenAIServer(toolcall_cancelling) as fake:
        trajectory = run(tmp_path / "run", fake, live_server, "toolcall", 0)
    tools = {tool["function"]["name"]: tool["function"] for tool in fake.requests[0]["tools"]}
    assert {"message_customer", "search_bookings", "transfer_to_supervisor"} <= set(tools)
    assert tools["transfer_to_supervisor"]["parameters"]["required"] == ["summary"]
    assert tools["book_flight"]["parameters"]["properties"]["fare"]["enum"] == ["Basic", "Standard", "Flex"]
    assert "THE AIRLINE'S POLICY:" in fake.requests[0]["messages"][1]["content"]
    metrics = trajectory["metrics"]
    assert (metrics["success"], metrics["said_ok"], metrics["verified_first"]) == (1, True, True), metrics["state_check"]
    assert trajectory["settings"]["tools"][-5:] == ["message_customer", "search_bookings", "quote_fare_upgrade",
                                                    "upgrade_fare", "transfer_to_supervisor"]
    assert trajectory["steps"][0]["customer"].startswith("My confirmation code is ")


@pytest.mark.parametrize("method, speak, transfer", [
    ("flat", 'SAY "<text>"', 'TRANSFER "<summary>"'), ("heap", 'SAY "<text>"', 'TRANSFER "<summary>"'),
    ("step", 'SAY "<text>"', 'TRANSFER "<summary>"'), ("synapse", 'SAY "<text>"', 'TRANSFER "<summary>"'),
    ("webwise", "say(text)", "transfer(summary)"), ("toolcall", "message_customer tool", "transfer_to_supervisor tool")])
def test_every_llm_method_on_a_call_is_told_the_policy_how_to_speak_and_how_to_transfer(method, speak, transfer):
    policy = make_policy(method, model="fake-model", base_url="http://127.0.0.1:9/v1", protocol="hard", on_call=True)
    policy.reset({"id": "x", "instruction": "The briefing.", "conversation": [{"role": "CUS", "text": "Hi."}]})
    told = task_text(policy.scenario)
    assert told.startswith("The briefing.\n\nYou are on a call") and speak in told and transfer in told
    assert "THE AIRLINE'S POLICY:\n# Changes and cancellations" in told
    off_call = make_policy(method, model="fake-model", base_url="http://127.0.0.1:9/v1")
    off_call.reset({"id": "x", "instruction": "The briefing.", "conversation": []})
    assert task_text(off_call.scenario) == "The briefing."


def test_the_transfer_tool_hands_the_call_to_a_supervisor_and_ends_the_episode(live_server):
    env = ApiEnv(live_server, suite="hard", on_call=True)
    env.reset(task="TASK_POLICY_CANCEL", seed=2)
    _, _, terminated, _, info = env.step('transfer_to_supervisor {"summary": "Wants a refund on a Basic fare."}')
    assert info["error"] is None and terminated and info["customer"] == "Thank you. I'll hold for the supervisor."
    assert info["metrics"]["transferred"] is True and info["metrics"]["success"] == 0
