"""GET /scenario-activity: the operator reads a scenario's page events and call lines in the order the
server received them, each with the time it received it; anyone else is refused; a database from before
the times were kept gets the columns, and its older rows say they have no time."""
import datetime as dt

from sqlalchemy import text

from crm_app.schema_upgrade import upgrade
from tests.conftest import OPERATOR

ACTIVITY = "/scenario-activity?scenario={}"


def _scenario(client) -> str:
    return client.get("/generate-random-scenario?suite=hard&task=TASK_FALSE_CLAIM&seed=1").json["id"]


def _event(client, scenario, seq, action, target, value=None):
    body = {"page": "load1", "seq": seq, "action": action, "target": target, **({"value": value} if value else {})}
    assert client.post(f"/api/events?scenario={scenario}", json=body).status_code == 201


def _time(text_value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text_value)


def test_the_operator_reads_events_and_call_lines_in_order_with_the_times_they_arrived(client):
    scenario = _scenario(client)
    before = dt.datetime.now(dt.timezone.utc)
    _event(client, scenario, 1, "fill", "call-message", "Hello")
    client.post(f"/api/customer/messages?scenario={scenario}", json={"text": "Hello"})
    _event(client, scenario, 2, "click", "nav-find-booking")
    client.post(f"/api/customer/end?scenario={scenario}")
    after = dt.datetime.now(dt.timezone.utc)

    answer = client.get(ACTIVITY.format(scenario), headers=OPERATOR)

    assert answer.status_code == 200
    found = answer.json
    assert found["id"] == scenario
    assert [(e["seq"], e["action"], e["target"], e["value"]) for e in found["events"]] == [
        (1, "fill", "call-message", "Hello"), (2, "click", "nav-find-booking", None)]
    assert [line["role"] for line in found["call"]] == ["agent", "customer", "end"]
    assert found["call"][0]["text"] == "Hello" and found["call"][2]["text"] == ""
    times = [_time(e["received"]) for e in found["events"]] + [_time(line["received"]) for line in found["call"]]
    assert all(before - dt.timedelta(seconds=1) <= moment <= after + dt.timedelta(seconds=1) for moment in times)
    assert _time(found["events"][0]["received"]) <= _time(found["call"][0]["received"]) \
        <= _time(found["events"][1]["received"]) <= _time(found["call"][2]["received"])


def test_without_the_operator_token_or_with_a_wrong_one_it_is_refused(client):
    scenario = _scenario(client)
    refused = client.get(ACTIVITY.format(scenario))
    assert refused.status_code == 403
    assert refused.json["error"] == ("GET /scenario-activity is the operator's: send the operator token "
                                     "(X-Operator-Token or ?token=)")
    assert client.get(ACTIVITY.format(scenario), headers={"X-Operator-Token": "wrong"}).status_code == 403
    assert client.get("/scenario-activity", headers=OPERATOR).status_code == 400
    assert client.get(ACTIVITY.format("nosuchscenario00000"), headers=OPERATOR).status_code == 404


def test_the_answers_agents_get_carry_no_times(client):
    scenario = _scenario(client)
    _event(client, scenario, 1, "click", "nav-find-booking")
    client.post(f"/api/customer/messages?scenario={scenario}", json={"text": "Hello"})
    assert "received" not in str(client.get(f"/api/customer/messages?scenario={scenario}").json)
    assert "received" not in str(client.get(f"/evaluate?scenario={scenario}", headers=OPERATOR).json)


def test_an_older_database_gets_the_time_columns_and_its_earlier_rows_have_no_time(app, client):
    scenario = _scenario(client)
    with app.extensions["engine"].begin() as connection:
        for table in ("events", "customer_messages"):
            connection.execute(text(f"ALTER TABLE {table} DROP COLUMN received_at"))
    with app.extensions["engine"].begin() as connection:
        assert upgrade(connection) == ["events.received_at", "customer_messages.received_at"]
        assert upgrade(connection) == []
        connection.execute(text("INSERT INTO events (scenario_id, page, seq, action, target) "
                                "VALUES (:id, 'old', 1, 'click', 'nav-find-booking')"), {"id": scenario})
    _event(client, scenario, 1, "click", "find-submit")
    events = client.get(ACTIVITY.format(scenario), headers=OPERATOR).json["events"]
    assert [e["received"] is None for e in events] == [True, False]
