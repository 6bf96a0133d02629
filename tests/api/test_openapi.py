"""GET /openapi.json: a valid OpenAPI 3.1 document of exactly the routes the app registers, with
the operationIds that tool definitions are generated from and descriptions a model can act on."""
from __future__ import annotations

import re

import schemathesis
from jsonschema import validate

from tests.conftest import OPERATOR

CRM_OPERATIONS = {
    "search_airports": ("GET", "/api/airports"),
    "search_flights": ("GET", "/api/flights/search"),
    "get_quote": ("GET", "/api/quote"),
    "book_flight": ("POST", "/api/bookings"),
    "get_booking": ("GET", "/api/bookings/{code}"),
    "cancel_booking": ("POST", "/api/bookings/{code}/cancel"),
    "update_passenger": ("PATCH", "/api/bookings/{code}/passenger"),
    "change_flights": ("PUT", "/api/bookings/{code}/flights"),
}
HTTP_METHODS = {"get", "post", "put", "patch", "delete"}


def operations(document: dict) -> dict[tuple[str, str], dict]:
    return {(method.upper(), path): op for path, item in document["paths"].items()
            for method, op in item.items() if method in HTTP_METHODS}


def registered_routes(app) -> set[tuple[str, str]]:
    """(method, path) of every Flask rule, with <name> and <conv:name> written as {name}."""
    routes = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        routes |= {(method, path) for method in rule.methods - {"HEAD", "OPTIONS"}}
    return routes


def test_the_document_lists_exactly_the_registered_routes(app, client):
    response = client.get("/openapi.json")
    assert response.status_code == 200
    assert response.content_type == "application/json"
    documented = set(operations(response.json))
    assert documented == registered_routes(app), (
        f"not documented: {registered_routes(app) - documented}; not a route: {documented - registered_routes(app)}")


def test_the_document_is_valid_openapi_3_1(client):
    document = client.get("/openapi.json").json
    assert document["openapi"].startswith("3.1")
    schemathesis.openapi.from_dict(document).validate()  # against the OpenAPI 3.1 meta-schema


def test_crm_operations_have_the_tool_names_and_descriptions_for_models(client):
    document = client.get("/openapi.json").json
    found = {op["operationId"]: key for key, op in operations(document).items()}
    for operation_id, key in CRM_OPERATIONS.items():
        assert found.get(operation_id) == key, operation_id
    assert len(found) == len(operations(document))  # every operation has its own id
    parameters = document["components"]["parameters"]
    for key, op in operations(document).items():
        assert len(op["description"]) > 30, key
        for parameter in op["parameters"]:
            parameter = parameters[parameter["$ref"].rsplit("/", 1)[1]] if "$ref" in parameter else parameter
            assert parameter["description"], (key, parameter["name"])
        assert "4XX" in op["responses"], key  # every error answer is documented with the error shape


def test_scenario_operator_token_and_idempotency_are_documented(client):
    document = client.get("/openapi.json").json
    ops = operations(document)
    names = {p["$ref"].rsplit("/", 1)[1] for p in ops[("GET", "/evaluate")]["parameters"]}
    assert {"OperatorTokenQuery", "OperatorTokenHeader", "ScenarioQuery", "ScenarioHeader"} <= names
    for key in [("POST", "/api/bookings"), ("POST", "/api/bookings/{code}/cancel"),
                ("PATCH", "/api/bookings/{code}/passenger"), ("PUT", "/api/bookings/{code}/flights")]:
        assert {"$ref": "#/components/parameters/IdempotencyKey"} in ops[key]["parameters"], key
    error = document["components"]["schemas"]["Error"]
    assert error["required"] == ["error"] and set(error["properties"]) == {"error", "fields"}


def test_the_evaluation_documents_every_reason_of_a_hard_verdict(client):
    """state_check's `reasons` and `failed` are described, and a hard answer that failed twice fits them."""
    schema = client.get("/openapi.json").json["components"]["schemas"]["Evaluation"]["properties"]["state_check"]
    assert schema["properties"]["failed"]["items"]["enum"] == ["state", "said", "verified_first", "under_policy",
                                                              "transfer"]
    assert "every failure" in schema["properties"]["reasons"]["description"]
    scenario = client.get("/generate-random-scenario?suite=hard&task=TASK_POLICY_CHANGE&seed=0", headers=OPERATOR).json
    check = client.get(f"/evaluate?scenario={scenario['id']}", headers=OPERATOR).json["state_check"]
    validate(check, schema)
    assert check["failed"] == ["state", "said"] and len(check["reasons"]) >= 2
