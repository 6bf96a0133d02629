"""Recording the API calls of a scenario (scenarios/call_log.py) reads what the route read, once,
and never turns an answer into a 500: a call the route refused is recorded with its status and the
parameters the route could read (none of a body it refused). tests/api/test_hostile_requests.py
sends the hostile requests themselves, inside and outside a scenario."""
from __future__ import annotations

from tests.conftest import OPERATOR


def recorded(client, scenario: dict) -> list[tuple[str, dict, int]]:
    """(operation, params, status) of each call the scenario recorded, as the api modality scores them."""
    from crm_app.models import ApiCall
    with client.application.extensions["sessionmaker"]() as session:
        rows = session.query(ApiCall).filter_by(scenario_id=scenario["id"]).order_by(ApiCall.id).all()
        return [(row.operation, row.params, row.status) for row in rows]


def test_refused_calls_are_recorded_with_their_status_and_the_next_one_works(client):
    scenario = client.get("/generate-random-scenario?task=TASK_CANCEL_FLIGHT&seed=4").json
    code, inside = scenario["details"]["confirmation-code"], f"?scenario={scenario['id']}"
    too_deep = client.patch(f"/api/bookings/{code}/passenger{inside}", data="[" * 1000 + "]" * 1000,
                            content_type="application/json")
    too_large = client.post(f"/api/bookings/{code}/cancel{inside}", data=b'{"a": "' + b"x" * 70_000 + b'"}',
                            content_type="application/json")
    superscript = client.get(f"/api/quote{inside}&outward=⁵")
    assert [r.status_code for r in (too_deep, too_large, superscript)] == [400, 413, 400]
    assert client.get(f"/api/bookings/{code}{inside}").status_code == 200
    assert recorded(client, scenario) == [
        ("update_passenger", {"code": code, "passenger": {}}, 400),
        ("cancel_booking", {"code": code, "confirmation_code": None}, 413),
        ("quote", {"outward": "⁵", "return": None, "outward_flight": None, "return_flight": None}, 400),
        ("get_booking", {"code": code}, 200)]
    scores = client.get(f"/evaluate?scenario={scenario['id']}&modality=api", headers=OPERATOR).json
    assert scores["num_actions"] == 4 and scores["success"] == 0
