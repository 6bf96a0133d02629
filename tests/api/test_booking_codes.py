"""The codes of bookings made inside a scenario come from its task, its seed and its count of bookings,
so every replay of a scenario (a new scenario of the same task and seed, or the same one after a
reset) gives the same codes, in trajectories, reports and exports alike (the sandbox's stay random)."""
from .helpers import booking_payload

SCENARIO = "/generate-random-scenario?task=TASK_BOOK_FLIGHT&seed=12"


def new_scenario(client, query: str = SCENARIO) -> str:
    return client.get(query).json["id"]


def book(client, scenario_id: str) -> str:
    answer = client.post("/api/bookings", json=booking_payload(client), headers={"X-Scenario-Id": scenario_id})
    assert answer.status_code == 201, answer.json
    return answer.json["booking"]["code"]


def test_replays_of_a_scenario_get_the_same_codes(client):
    first = new_scenario(client)
    codes = [book(client, first), book(client, first)]
    assert codes[0] != codes[1]
    assert book(client, new_scenario(client)) == codes[0]
    again = new_scenario(client)
    assert [book(client, again), book(client, again)] == codes
    client.get(f"/reset-scenario?scenario={first}")
    assert book(client, first) == codes[0]


def test_another_seed_or_task_gets_other_codes(client):
    code = book(client, new_scenario(client))
    assert book(client, new_scenario(client, SCENARIO.replace("seed=12", "seed=13"))) != code
    assert book(client, new_scenario(client, SCENARIO.replace("TASK_BOOK_FLIGHT", "TASK_FIND_FLIGHT"))) != code

