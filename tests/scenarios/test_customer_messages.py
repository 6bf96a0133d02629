"""The call with a scenario's customer over HTTP: POST and GET /api/customer/messages. The customer's
opening line comes first; each line the agent says is stored with the reply, once per
Idempotency-Key; bad input is a 4xx that stores nothing; a reset forgets the call. The rep may end
the call (POST /api/customer/end, the page's End call) or transfer it; either way it then takes no
more lines."""
import pytest
from sqlalchemy import text

from crm_app.schema_upgrade import upgrade

URL = "/api/customer/messages?scenario={}"
OPENING = {"role": "customer", "text": "Hello, I need to cancel my flight."}


@pytest.fixture
def scenario(client):
    return client.get("/generate-random-scenario?task=TASK_CANCEL_FLIGHT&seed=1").json["id"]


def say(client, scenario, text, **headers):
    return client.post(URL.format(scenario), json={"text": text}, headers=headers)


def test_the_call_starts_with_the_customers_opening_line_and_keeps_every_line_in_order(client, scenario):
    assert client.get(URL.format(scenario)).json == {"messages": [OPENING], "customer": "rules", "open": True,
                                                     "ended": None, "lines": 0}
    asked = say(client, scenario, "How can I help you today?")
    assert asked.status_code == 201 and asked.json == {"reply": OPENING["text"], "lines": 2}  # the line, the reply
    assert say(client, scenario, "What is your frequent flyer number?").json == \
        {"reply": "I'm sorry, I don't have a frequent flyer number.", "lines": 4}
    assert client.get(URL.format(scenario)).json["messages"] == [
        OPENING, {"role": "agent", "text": "How can I help you today?"}, {"role": "customer", "text": OPENING["text"]},
        {"role": "agent", "text": "What is your frequent flyer number?"},
        {"role": "customer", "text": "I'm sorry, I don't have a frequent flyer number."}]


def test_a_line_with_an_idempotency_key_is_said_once(client, scenario):
    first = say(client, scenario, "Anything else?", **{"Idempotency-Key": "line-1"})
    again = say(client, scenario, "Anything else?", **{"Idempotency-Key": "line-1"})
    assert first.json == again.json == {"reply": "No, that's everything. Thank you.", "lines": 2}
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert len(client.get(URL.format(scenario)).json["messages"]) == 3
    assert say(client, scenario, "Something else", **{"Idempotency-Key": "line-1"}).status_code == 409


@pytest.mark.parametrize("body, message", [
    ({}, "text is required"), ({"text": "   "}, "text is required"), ({"text": 5}, "text is required"),
    ({"text": "x" * 8001}, "text is at most 8000 characters"), (["text"], "The request body must be a JSON object")])
def test_bad_input_is_a_clear_400_and_stores_nothing(client, scenario, body, message):
    answer = client.post(URL.format(scenario), json=body)
    assert answer.status_code == 400 and answer.json["error"].startswith(message)
    assert client.get(URL.format(scenario)).json == {"messages": [OPENING], "customer": "rules", "open": True,
                                                     "ended": None, "lines": 0}


def test_a_long_line_as_real_agents_say_them_is_answered(client, scenario):
    summary = "Here is everything on your booking. " + "The fare rules stay as they were. " * 150
    line = summary[:4900] + " Is there anything else I can help you with?"
    assert 4900 < len(line) <= 5000
    answer = say(client, scenario, line)
    assert answer.status_code == 201 and answer.json == {"reply": "No, that's everything. Thank you.", "lines": 2}
    assert say(client, scenario, "y" * 8000).status_code == 201


def test_without_a_scenario_or_with_an_unknown_one_it_refuses(client):
    assert client.post("/api/customer/messages", json={"text": "Hi"}).status_code == 400
    assert client.get(URL.format("zzzzzzzzzzzzzzzzzzzz")).status_code == 404
    assert say(client, "zzzzzzzzzzzzzzzzzzzz", "Hi").status_code == 404


def test_a_reset_forgets_the_call(client, scenario):
    say(client, scenario, "How can I help you?")
    assert client.get(f"/reset-scenario?scenario={scenario}").status_code == 200
    assert client.get(URL.format(scenario)).json == {"messages": [OPENING], "customer": "rules", "open": True,
                                                     "ended": None, "lines": 0}


def test_a_scenario_holds_at_most_200_lines_of_the_agents(client, scenario, monkeypatch):
    monkeypatch.setattr("scenarios.customer.transcript.MAX_LINES", 2)
    assert [say(client, scenario, "Okay.").status_code for _ in range(3)] == [201, 201, 429]
    assert len(client.get(URL.format(scenario)).json["messages"]) == 5


def test_a_database_that_held_lines_of_1000_characters_is_widened_to_8000(app, client, scenario):
    with app.extensions["engine"].begin() as connection:
        if connection.dialect.name != "sqlite":  # SQLite holds text to no length; PostgreSQL does
            connection.execute(text("ALTER TABLE customer_messages ALTER COLUMN text TYPE VARCHAR(1000)"))
            assert upgrade(connection) == ["customer_messages.text"]
        assert upgrade(connection) == []
    line = "Here is your booking. " * 300 + "Anything else?"
    assert 6000 < len(line) <= 8000 and say(client, scenario, line).status_code == 201
    assert client.get(URL.format(scenario)).json["messages"][-2] == {"role": "agent", "text": line}


TRANSFER = "/api/customer/transfer?scenario={}"


def test_a_transfer_to_a_supervisor_ends_the_call_once(client, scenario):
    say(client, scenario, "How can I help you today?")
    answer = client.post(TRANSFER.format(scenario), json={"summary": "Wants to cancel; asks for an exception."},
                         headers={"Idempotency-Key": "transfer-1"})
    assert answer.status_code == 201 and answer.json == {"transferred": True,
                                                         "reply": "Thank you. I'll hold for the supervisor.",
                                                         "lines": 4}  # a line and its reply, the summary, the last line
    again = client.post(TRANSFER.format(scenario), json={"summary": "Wants to cancel; asks for an exception."},
                        headers={"Idempotency-Key": "transfer-1"})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert client.post(TRANSFER.format(scenario), json={"summary": "Once more."}).status_code == 409
    refused = say(client, scenario, "Hello?")
    assert refused.status_code == 409 and refused.json["error"].startswith("The call was transferred to a supervisor")
    assert client.get(URL.format(scenario)).json["messages"][-2:] == [
        {"role": "transfer", "text": "Wants to cancel; asks for an exception."},
        {"role": "customer", "text": "Thank you. I'll hold for the supervisor."}]
    assert client.get(f"/reset-scenario?scenario={scenario}").status_code == 200
    assert say(client, scenario, "How can I help you today?").status_code == 201


@pytest.mark.parametrize("body, message", [({}, "summary is required"), ({"summary": " "}, "summary is required"),
                                           ({"summary": "x" * 8001}, "summary is at most 8000 characters")])
def test_a_transfer_without_a_summary_is_a_clear_400_and_ends_nothing(client, scenario, body, message):
    answer = client.post(TRANSFER.format(scenario), json=body)
    assert answer.status_code == 400 and answer.json["error"].startswith(message)
    assert say(client, scenario, "How can I help you today?").status_code == 201


END = "/api/customer/end?scenario={}"


def test_the_rep_ends_the_call_once_and_it_takes_no_more_lines(client, scenario):
    say(client, scenario, "How can I help you today?")
    lines = client.get(URL.format(scenario)).json["messages"]
    ended = client.post(END.format(scenario), headers={"Idempotency-Key": "end-1"})
    assert ended.status_code == 201 and ended.json == {"ended": True, "lines": 3}  # a line, its reply, the end
    again = client.post(END.format(scenario), headers={"Idempotency-Key": "end-1"})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    twice = client.post(END.format(scenario))
    assert twice.status_code == 409 and twice.json["error"] == "The call has ended; reset the scenario to start over"
    refused = say(client, scenario, "Hello?")
    assert refused.status_code == 409 and refused.json["error"].startswith("The call has ended")
    assert client.post(TRANSFER.format(scenario), json={"summary": "Too late."}).status_code == 409
    assert client.get(URL.format(scenario)).json == {"messages": lines, "customer": "rules", "open": False,
                                                     "ended": "end", "lines": 3}
    assert client.get(f"/reset-scenario?scenario={scenario}").status_code == 200
    assert client.get(URL.format(scenario)).json["open"] is True


def test_a_transferred_call_says_so_and_cannot_be_ended(client, scenario):
    client.post(TRANSFER.format(scenario), json={"summary": "Asks for a supervisor."})
    assert client.get(URL.format(scenario)).json["ended"] == "transfer"
    refused = client.post(END.format(scenario))
    assert refused.status_code == 409 and refused.json["error"].startswith("The call was transferred")


def test_ending_the_call_of_no_scenario_is_a_clear_4xx(client):
    assert client.post("/api/customer/end").status_code == 400
    assert client.post(END.format("nosuchscenario")).status_code == 404
