"""The LLM customer (`run.py --customer-model`, CRM_CUSTOMER_MODEL) against the fake
OpenAI-compatible server of tests/: it is asked with the hidden facts and the call so far through the
real openai client, its reply is the customer's line, the call records which customer answered, a
model that fails is a clear 502 that stores nothing, and without a model the rule-based customer
answers."""
import json
import urllib.request

import pytest

from scenarios.app import create_app
from tests.conftest import OPERATOR, TEST_CONFIG
from tests.fake_openai import FakeOpenAIServer
from tests.scenarios.run_py import run_py

VERIFY = "Could you give me your confirmation code and the passenger's date of birth, please?"


@pytest.fixture
def make_client(database_url, tmp_path):
    def make(**settings):
        app = create_app({**TEST_CONFIG, "DATABASE_URL": database_url, "INSTANCE_PATH": str(tmp_path / "instance"),
                          **settings})
        return app.test_client()
    return make


def scenario(client) -> dict:
    return client.get("/generate-random-scenario?suite=hard&task=TASK_POLICY_CANCEL&seed=0", headers=OPERATOR).json


def test_the_model_role_plays_from_the_hidden_facts_and_the_call(make_client):
    with FakeOpenAIServer(["My code is 6NN5NW and I was born on February 15, 1980."]) as fake:
        client = make_client(CUSTOMER_MODEL="fake-customer", CUSTOMER_BASE_URL=fake.base_url)
        made = scenario(client)
        said = client.post(f"/api/customer/messages?scenario={made['id']}", json={"text": VERIFY})
        request = fake.requests[0]
    assert said.status_code == 201 and said.json == {"reply": "My code is 6NN5NW and I was born on February 15, 1980.",
                                                   "lines": 2}
    assert request["model"] == "fake-customer" and request["temperature"] == 0
    system, opening, asked = request["messages"]
    facts = made["details"]["customer"]
    assert system["role"] == "system" and f"My confirmation code is {facts['confirmation_code']}." in system["content"]
    assert "My date of birth is February 15, 1980." in system["content"] and made["conversation"][0]["text"] in \
        system["content"]
    assert opening == {"role": "assistant", "content": made["conversation"][0]["text"]}
    assert asked == {"role": "user", "content": VERIFY}
    call = client.get(f"/api/customer/messages?scenario={made['id']}").json
    assert call["customer"] == "llm:fake-customer" and call["messages"][-1]["text"].startswith("My code is")


def test_a_model_that_fails_is_a_502_that_stores_nothing(make_client):
    with FakeOpenAIServer([{"status": 401, "error": "bad key"}] * 3) as fake:
        client = make_client(CUSTOMER_MODEL="fake-customer", CUSTOMER_BASE_URL=fake.base_url)
        made = scenario(client)
        said = client.post(f"/api/customer/messages?scenario={made['id']}", json={"text": VERIFY})
    assert said.status_code == 502 and said.json["error"].startswith("The customer's model fake-customer did not answer")
    assert len(client.get(f"/api/customer/messages?scenario={made['id']}").json["messages"]) == 1


def test_without_a_model_the_rule_based_customer_answers(make_client):
    client = make_client()
    made = scenario(client)
    reply = client.post(f"/api/customer/messages?scenario={made['id']}", json={"text": VERIFY}).json["reply"]
    assert reply.startswith("My confirmation code is ")
    assert client.get(f"/api/customer/messages?scenario={made['id']}").json["customer"] == "rules"


def test_run_py_serves_the_customer_of_its_customer_model(tmp_path):
    with FakeOpenAIServer(lambda request: "It's 6NN5NW.") as fake, \
            run_py(tmp_path, "--suite", "hard", "--customer-model", "fake-customer",
                   "--customer-base-url", fake.base_url) as (lines, url):
        assert any(line.rstrip().endswith("customer: llm:fake-customer") for line in lines), lines
        with urllib.request.urlopen(f"{url}/generate-random-scenario?task=TASK_POLICY_CANCEL&seed=0",
                                    timeout=30) as answer:
            made = json.loads(answer.read())
        request = urllib.request.Request(f"{url}/api/customer/messages?scenario={made['id']}", method="POST",
                                         data=json.dumps({"text": VERIFY}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert json.loads(answer.read()) == {"reply": "It's 6NN5NW.", "lines": 2}


def test_the_impatient_llm_customer_hangs_up_as_the_rule_based_one_does(make_client):
    """Told the impatient caller's end-of-call mark, a model reply ending with it ends the call:
    ended "end", further lines a 409, as with the rule-based impatient caller; the plain LLM caller's
    same words end nothing."""
    hang_up = "I've told you that twice already. I'm hanging up."
    asked = "What is your confirmation code?"
    with FakeOpenAIServer(lambda request: "Fine. 6NN5NW." if len(request["messages"]) < 6 else hang_up) as fake:
        client = make_client(CUSTOMER_MODEL="fake-customer", CUSTOMER_BASE_URL=fake.base_url)
        ids = {}
        for variant in (5, 0):
            ids[variant] = client.get(f"/generate-random-scenario?suite=hard&task=TASK_POLICY_CANCEL&seed=0"
                                      f"&customer_variant={variant}", headers=OPERATOR).json["id"]
            replies = [client.post(f"/api/customer/messages?scenario={ids[variant]}", json={"text": asked}).json["reply"]
                       for _ in range(3)]
            assert replies[-1] == hang_up
        told = fake.requests[0]["messages"][0]["content"]
    assert f'end the call by saying exactly "{hang_up}"' in told
    impatient = client.get(f"/api/customer/messages?scenario={ids[5]}").json
    assert (impatient["open"], impatient["ended"], impatient["customer"]) == (False, "end", "llm:fake-customer")
    assert client.post(f"/api/customer/messages?scenario={ids[5]}", json={"text": "Hello?"}).status_code == 409
    plain = client.get(f"/api/customer/messages?scenario={ids[0]}").json
    assert (plain["open"], plain["ended"]) == (True, None)
