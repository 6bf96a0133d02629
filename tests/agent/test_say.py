"""SAY and TRANSFER: the agent talks to the scenario's simulated customer through the browser
environment; the reply opens the next observation as a CUSTOMER: line and the call is kept by the
server; a transfer to a supervisor ends the call and the episode."""
import pytest

from agent.env.actions import ActionError, describe_actions, parse_action
from agent.env.browser_env import CrmEnv
from crm_app.http_client import http_sender

OPENING = "Hello, I need to cancel my flight."


@pytest.mark.parametrize("text", ['SAY "How can I help?"', "say [How can I help?]", "SAY 'How can I help?'",
                                  'send_msg_to_user("How can I help?")', 'message_customer "How can I help?"'])
def test_say_is_parsed_in_every_spelling(text):
    action = parse_action(text)
    assert (action.name, action.value, str(action)) == ("say", "How can I help?", 'SAY "How can I help?"')


@pytest.mark.parametrize("text", ["SAY", 'SAY ""', "say [  ]"])
def test_say_without_words_is_a_clear_error(text):
    with pytest.raises(ActionError, match='expected SAY "text"'):
        parse_action(text)


def test_say_and_transfer_are_offered_only_where_a_protocol_asks_for_the_conversation():
    assert "SAY" not in describe_actions() and "TRANSFER" not in describe_actions()
    said, transfer = describe_actions(conversation=True).splitlines()[-2:]
    assert said.startswith('- SAY "<text>" or say [<text>]: ')
    assert transfer.startswith('- TRANSFER "<summary>" or transfer [<summary>]: ')


@pytest.mark.parametrize("text", ['TRANSFER "Wants an exception."', "transfer [Wants an exception.]",
                                  'transfer_to_supervisor("Wants an exception.")'])
def test_transfer_is_parsed_in_every_spelling(text):
    action = parse_action(text)
    assert (action.name, action.value, str(action)) == ("transfer", "Wants an exception.", 'TRANSFER "Wants an exception."')


def test_transfer_without_a_summary_is_a_clear_error():
    with pytest.raises(ActionError, match='expected TRANSFER "text"'):
        parse_action("TRANSFER")


@pytest.mark.browser
def test_the_customers_reply_opens_the_next_observation_and_the_call_is_kept(live_server, browser):
    with CrmEnv(live_server, browser=browser) as env:
        obs, info = env.reset(task="TASK_CANCEL_FLIGHT", seed=1)
        page = obs.text
        obs, _, terminated, _, step = env.step('SAY "How can I help you today?"')
        assert step["error"] is None and not terminated and step["action"] == 'SAY "How can I help you today?"'
        assert obs.customer == OPENING and obs.text == f"CUSTOMER: {OPENING}\n{page}"
        obs, _, _, _, step = env.step('SAY "What is your frequent flyer number?"')
        assert obs.text.splitlines()[0] == "CUSTOMER: I'm sorry, I don't have a frequent flyer number."
        obs, _, _, _, step = env.step("SCROLL down")
        assert obs.customer is None and not obs.text.startswith("CUSTOMER:")
        status, call = http_sender(live_server)("GET", f"/api/customer/messages?scenario={info['scenario']['id']}")
    assert status == 200 and [m["role"] for m in call["messages"]] == ["customer", "agent", "customer", "agent",
                                                                      "customer"]
    assert call["messages"][3] == {"role": "agent", "text": "What is your frequent flyer number?"}


@pytest.mark.browser
def test_a_transfer_ends_the_call_and_the_episode(live_server, browser):
    with CrmEnv(live_server, browser=browser) as env:
        _, info = env.reset(task="TASK_CANCEL_FLIGHT", seed=1)
        obs, _, terminated, _, step = env.step('TRANSFER "The customer wants to cancel."')
        assert step["error"] is None and terminated and step["customer"] == "Thank you. I'll hold for the supervisor."
        status, call = http_sender(live_server)("GET", f"/api/customer/messages?scenario={info['scenario']['id']}")
    assert call["messages"][-2] == {"role": "transfer", "text": "The customer wants to cancel."}


@pytest.mark.browser
def test_a_line_the_server_refuses_is_the_steps_error(live_server, browser):
    with CrmEnv(live_server, browser=browser) as env:
        env.reset(task="TASK_CANCEL_FLIGHT", seed=1)
        obs, _, _, _, step = env.step("SAY " + "x" * 8001)
    assert "text is at most 8000 characters" in step["error"] and obs.text.startswith("ERROR: ")
