"""The full and paper suites are byte-for-byte what they were before the hard suite (issue 24): their
scenarios, /evaluate's answer, the bookings they start from and the flight searches of their
flights, as commit e1fc813 answered them (data/full_and_paper_before_hard.jsonl, one line per
scenario; flight ids, which depend on the database's insertion order, left out)."""
import json
from pathlib import Path

from tests.conftest import OPERATOR

BEFORE = Path(__file__).resolve().parent / "data" / "full_and_paper_before_hard.jsonl"


def answers(client, suite: str, task: str, seed: int) -> dict:
    made = client.get(f"/generate-random-scenario?suite={suite}&task={task}&seed={seed}", headers=OPERATOR).json
    scenario_id = made.pop("id")
    made.pop("url")
    evaluation = client.get(f"/evaluate?scenario={scenario_id}", headers=OPERATOR).json
    evaluation.pop("id")
    entry = {"suite": suite, "scenario": made, "evaluate": evaluation}
    code = made["details"].get("confirmation-code")
    if code:
        entry["booking"] = client.get(f"/api/bookings/{code}?scenario={scenario_id}").json
        for flight in entry["booking"]["booking"]["flights"]:
            flight.pop("id")
    flight = made["details"].get("flight")
    if flight:
        entry["search"] = client.get(f"/api/flights/search?scenario={scenario_id}&from={flight['from']}"
                                     f"&to={flight['to']}&date={flight['departure']}").json
        for found in entry["search"]["flights"]:
            found.pop("id")
    return entry


def test_full_and_paper_answer_as_before_the_hard_suite(client):
    before = [json.loads(line) for line in BEFORE.read_text().splitlines()]
    assert len(before) == 33
    for old in before:
        scenario = old["scenario"]
        now = answers(client, old["suite"], scenario["scenario"], scenario["seed"])
        assert json.dumps(now, sort_keys=True) == json.dumps(old, sort_keys=True), (old["suite"], scenario["scenario"])
