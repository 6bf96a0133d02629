"""Raising a booking's fare family (issue 35): quoted with the policy's terms, then done, paying the
difference; never lowered; recorded inside a scenario as the write `upgrade_fare`."""
from tests.conftest import OPERATOR


def hard_booking(client, seed: int, task: str = "TASK_POLICY_CHANGE") -> tuple[str, str]:
    """(scenario id, booking code) of a hard scenario's caller (seed 2: a Basic fare; 4: departing
    within 24 hours, a Standard one)."""
    made = client.get(f"/generate-random-scenario?task={task}&seed={seed}&suite=hard", headers=OPERATOR).json
    return made["id"], made["details"]["confirmation-code"]


def test_the_quote_prices_the_higher_fare_and_the_upgrade_pays_the_difference(client):
    scenario, code = hard_booking(client, 2)
    before = client.get(f"/api/bookings/{code}?scenario={scenario}").json["booking"]
    quote = client.get(f"/api/bookings/{code}/fare/quote?scenario={scenario}&fare=Standard")
    assert quote.status_code == 200 and before["fare"] == "Basic"
    answer = quote.json
    assert answer["fare"] == "Standard" and answer["current_total"] == before["total"]
    assert float(answer["difference"]) == round(float(answer["total"]) - float(answer["current_total"]), 2) > 0
    assert answer["policy"] == {"outcome": "allowed", "amount": answer["difference"].lstrip("+"),
                                "rule": "Basic to Standard: the fare difference"}
    done = client.post(f"/api/bookings/{code}/fare?scenario={scenario}", json={"fare": "Standard"},
                       headers={"Idempotency-Key": "upgrade-1"})
    assert done.status_code == 200 and done.json["booking"]["fare"] == "Standard"
    assert done.json["booking"]["total"] == answer["total"]
    again = client.post(f"/api/bookings/{code}/fare?scenario={scenario}", json={"fare": "Standard"},
                        headers={"Idempotency-Key": "upgrade-1"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"


def test_a_fare_is_never_lowered_nor_set_to_itself_and_a_bad_fare_is_named(client):
    scenario, code = hard_booking(client, 0)  # Standard
    for fare, message in (("Basic", "A fare can only be raised: booking"), ("Standard", "A fare can only be raised"),
                          ("Gold", "fare must be one of Basic, Standard, Flex"), (None, "fare must be one of")):
        answer = client.post(f"/api/bookings/{code}/fare?scenario={scenario}", json={"fare": fare})
        assert answer.status_code == 400 and answer.json["error"].startswith(message), fare
        assert "fare" in answer.json["fields"]
    assert client.get(f"/api/bookings/{code}?scenario={scenario}").json["booking"]["fare"] == "Standard"


def test_within_24_hours_of_departure_the_terms_refuse_it(client):
    scenario, code = hard_booking(client, 4)  # departing within 24 hours
    quote = client.get(f"/api/bookings/{code}/fare/quote?scenario={scenario}&fare=Flex").json
    assert quote["policy"] == {"outcome": "refused", "amount": "0.00",
                               "rule": "no fare upgrade within 24 hours of departure"}


def test_a_cancelled_booking_is_not_upgraded(client):
    scenario, code = hard_booking(client, 0, "TASK_POLICY_CANCEL")
    assert client.post(f"/api/bookings/{code}/cancel?scenario={scenario}", json={"confirmation_code": code}).status_code == 200
    answer = client.post(f"/api/bookings/{code}/fare?scenario={scenario}", json={"fare": "Flex"})
    assert answer.status_code == 409 and answer.json["error"] == f"Booking {code} is already cancelled"


def test_inside_a_scenario_the_upgrade_is_recorded_as_a_write(client):
    scenario, code = hard_booking(client, 2)
    client.get(f"/api/bookings/{code}/fare/quote?scenario={scenario}&fare=flex")
    client.post(f"/api/bookings/{code}/fare?scenario={scenario}", json={"fare": "flex"})
    result = client.get(f"/evaluate?scenario={scenario}&modality=api", headers=OPERATOR).json
    assert result["verified_first"] is False  # a write, made before the caller was verified
    assert result["state_check"]["reason"] == f"booking {code}: fare is 'Flex', expected 'Basic'"


def test_the_policy_says_a_fare_may_be_raised_never_lowered(client):
    policy = client.get("/api/policy").json["policy"]
    assert "A booking's fare can be raised (Basic to Standard to Flex) up to 24 hours before departure" in policy
