"""Property-based fuzzing of every operation of the OpenAPI document with schemathesis: valid and
invalid (negative) requests, a fixed seed, bounded examples, each sent twice: as generated, and
inside a real scenario (`?scenario=<id>`, where the server also records the API call). They go
over HTTP to `python run.py`, on kept-alive connections, so every request must get an answer (a
connection the server closed without one fails the test). Every answer must be below 500, a 4xx
must be the JSON error shape, and every answer must match what the document says (status codes,
content types, schemas). `make fuzz` runs the same test with many more examples
(CRM_FUZZ_EXAMPLES) and prints the counts that the README's reliability section quotes.

Random generation rarely hits the one value that breaks a parameter ('²' in ui_variant answered 500
once in 2,000 requests), so every parameter the document names, in the query, the path, a header or
the top level of a JSON body, of every operation, also gets the values that once broke one, put into
a request the operation answers (`known_good`): a parameter added to the document is swept without
anyone listing it, and an operation added without a known good request fails the sweep."""
from __future__ import annotations

import os
from collections import Counter

import pytest
import requests
import schemathesis
from schemathesis import GenerationMode
from schemathesis.config import HealthCheck
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.checks import not_a_server_error

from crm_app.openapi import app_document
from scenarios.app import create_app
from tests.api.test_production_server import RunningServer
from tests.conftest import OPERATOR_TOKEN
from tests.databases import dispose

EXAMPLES = int(os.environ.get("CRM_FUZZ_EXAMPLES", "12"))
SEED = 20260601
COUNTS: Counter = Counter()


def error_shape(ctx, response, case) -> None:
    """A 4xx answer is {"error": non-empty text, "fields"?: {name: text}} and nothing else."""
    if not 400 <= response.status_code < 500:
        return
    body = response.json()
    assert isinstance(body, dict), f"{response.status_code} body is not a JSON object: {response.text[:200]}"
    assert isinstance(body.get("error"), str) and body["error"], f"no error message: {body}"
    assert set(body) <= {"error", "fields"}, f"unexpected keys in an error: {sorted(body)}"
    fields = body.get("fields", {})
    assert isinstance(fields, dict) and all(isinstance(v, str) for v in fields.values()), body


CHECKS = [not_a_server_error, error_shape, status_code_conformance, content_type_conformance,
          response_schema_conformance]


@pytest.fixture(scope="module")
def fuzzed_server(databases, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    # No cap on recorded calls: `make fuzz` sends tens of thousands into one scenario.
    running = RunningServer(databases.new(folder), folder, environment={"CRM_MAX_API_CALLS": str(10**9),
                                                                        "CRM_MAX_EVENTS": str(10**9)})
    yield running
    operations = {key for key in COUNTS if " /" in key}
    statuses = ", ".join(f"{COUNTS[k]} {k[1:]}" for k in sorted(COUNTS) if k.startswith("#"))
    print(f"\nschemathesis fuzz: {COUNTS['requests']} requests over {len(operations)} operations "
          f"({COUNTS['scenario requests']} of them inside a scenario; {statuses}), {COUNTS['#5xx']} answers of 5xx; "
          f"{COUNTS['swept requests']} requests sweeping every parameter")
    assert running.stop() == 0


def served_document() -> dict:
    """The document run.py serves, made before any server starts (the tests are generated from it),
    by the same app factory on an in-memory database."""
    app = create_app({"DATABASE_URL": "sqlite://", "SANDBOX_BOOKINGS": 0})
    try:
        return app_document(app)
    finally:
        dispose(app)


# The requests go to the module's run.py.
schema = schemathesis.openapi.from_dict(served_document())
schema.config.seed = SEED
schema.config.suppress_health_check = [HealthCheck.too_slow]  # a loaded CI machine is not a finding
schema.config.generation.update(max_examples=EXAMPLES, modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
                                database="none")


@pytest.fixture(scope="module")
def session() -> requests.Session:
    with requests.Session() as kept_alive:
        yield kept_alive


@pytest.fixture(scope="module")
def scenario_id(fuzzed_server, session) -> str:
    return session.get(f"{fuzzed_server.url}/generate-random-scenario?task=TASK_UPDATE_PASSENGER_DETAILS&seed=1",
                       timeout=30).json()["id"]


@schema.parametrize()
def test_no_generated_request_gets_a_5xx_or_an_undocumented_answer(case, fuzzed_server, session, scenario_id):
    for scope in ("sandbox", "scenario"):
        if scope == "scenario":
            case.query = {**(case.query or {}), "scenario": scenario_id}
        response = case.call(base_url=fuzzed_server.url, session=session, timeout=30)
        COUNTS["requests"] += 1
        COUNTS[case.operation.label] += 1
        COUNTS[f"#{response.status_code // 100}xx"] += 1
        COUNTS[f"{scope} requests"] += 1
        case.validate_response(response, checks=CHECKS)


# Digits that are not ASCII (str.isdigit() takes them, int() refuses the first and takes the
# second) and a number longer than int() reads.
SWEPT_VALUES = ["²", "٣", "5" * 5_000]


def resolved(document: dict, node: dict) -> dict:
    """`node`, or what its local $ref points to."""
    if "$ref" not in node:
        return node
    found = document
    for key in node["$ref"].removeprefix("#/").split("/"):
        found = found[key]
    return found


def swept_parameters(document: dict) -> list[tuple[str, str, str]]:
    """(operation label, where, name) of every parameter of every operation: query, path and header
    parameters, and the fields at the top level of a JSON body (of each of its alternatives)."""
    found = []
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            label = f"{method.upper()} {path}"
            found += [(label, parameter["in"], parameter["name"])
                      for parameter in map(lambda node: resolved(document, node), operation.get("parameters", []))]
            body = (operation.get("requestBody") or {}).get("content", {}).get("application/json")
            schema = resolved(document, body["schema"]) if body else {}
            fields = {name: None for part in schema.get("oneOf", [schema])
                      for name in resolved(document, part).get("properties", {})}
            found += [(label, "body", name) for name in fields]
    return found


SWEPT = swept_parameters(served_document())


@pytest.fixture(scope="module")
def known_good(fuzzed_server, session, scenario_id) -> dict[str, dict]:
    """A request that each operation answers, by operation label, as Case arguments."""
    url = fuzzed_server.url
    day, back = "2026-07-07", "2026-07-14"
    found = session.get(f"{url}/api/flights/search?from=JFK&to=FLL&date={day}&return={back}", timeout=30).json()
    outward, home = found["flights"][0]["id"], found["return_flights"][0]["id"]
    passenger = {"title": "Mr", "first_name": "Bill", "last_name": "Correa", "email": "bill@example.com",
                 "gender": "Male", "date_of_birth": "2003-04-20"}
    booking = {"outward_flight_id": outward, "return_flight_id": home, "passenger": passenger,
               "payment": {"card_number": "4111 1111 1111 1111", "expiry": "04/29", "security_code": "153",
                           "name_on_card": "Bill Correa"}}
    code = session.post(f"{url}/api/bookings", json=booking, timeout=30).json()["booking"]["code"]
    flights = {"outward": str(outward), "return": str(home)}
    scenario = {"scenario": scenario_id}
    made = {"task": "TASK_FIND_BOOKING", "seed": "1"}
    # a call of its own: the first transfer ends it, and every other request of the sweep keeps a call open
    transferred = {"scenario": session.get(f"{url}/generate-random-scenario?task=TASK_PUSHBACK&seed=4&suite=hard",
                                           timeout=30).json()["id"]}
    return {
        "GET /api/policy": {}, "GET /api/airports": {"query": {"q": "new"}},
        "GET /api/kb/search": {"query": {"q": "gold delay certificate"}}, "GET /api/kb/articles": {},
        "GET /api/kb/articles/{id}": {"path_parameters": {"id": "privacy-verification"}},
        "GET /api/flights/search": {"query": {"from": "JFK", "to": "FLL", "date": day, "return": back}},
        "GET /api/quote": {"query": flights}, "POST /api/passenger/validate": {"body": {"passenger": passenger}},
        "GET /api/bookings": {"query": {"last_name": "Correa", "date": day}}, "POST /api/bookings": {"body": booking},
        "GET /api/bookings/{code}": {"path_parameters": {"code": code}},
        "POST /api/bookings/{code}/cancel": {"path_parameters": {"code": code}, "body": {"confirmation_code": code}},
        "PATCH /api/bookings/{code}/passenger": {"path_parameters": {"code": code}, "body": {"first_name": "Will"}},
        "PUT /api/bookings/{code}/flights": {"path_parameters": {"code": code}, "body": {
            "outward_flight_id": outward, "return_flight_id": home}},
        "GET /api/bookings/{code}/flights/quote": {"path_parameters": {"code": code}, "query": flights},
        "GET /api/bookings/{code}/fare/quote": {"path_parameters": {"code": code}, "query": {"fare": "Flex"}},
        "POST /api/bookings/{code}/fare": {"path_parameters": {"code": code}, "body": {"fare": "Flex"}},
        "GET /api/config": {}, "GET /api/suites": {}, "GET /generate-random-scenario": {"query": made}, "GET /get-random-scenario": {"query": made},
        "GET /reset-scenario": {"query": scenario}, "GET /evaluate": {"query": {**scenario, "timeline": "all"}},
        "POST /api/events": {"query": scenario, "body": {"page": "sweep", "seq": 1, "action": "click",
                                                         "target": "nav-home"}},
        "POST /api/customer/messages": {"query": scenario, "body": {"text": "Hello"}},
        "POST /api/customer/transfer": {"query": transferred, "body": {"summary": "Asks for a supervisor."}},
        "POST /api/customer/end": {"query": transferred},
        "GET /scenario-activity": {"query": {**scenario, "token": OPERATOR_TOKEN}},
        "GET /api/customer/messages": {"query": scenario}, "GET /": {},
        "GET /static/{filename}": {"path_parameters": {"filename": "app.js"}},
        "GET /ui-variant/{number}/style.css": {"path_parameters": {"number": "3"}}, "GET /openapi.json": {},
        "GET /api/docs": {}, "GET /api/docs/{filename}": {"path_parameters": {"filename": "swagger-ui.css"}},
    }


def test_every_operation_has_a_known_good_request_to_sweep(known_good):
    assert sorted(known_good) == sorted(result.ok().label for result in schema.get_all_operations())


WHERE = {"query": "query", "path": "path_parameters", "header": "headers", "body": "body"}


@pytest.mark.parametrize("label, where, name", SWEPT, ids=[f"{label} {where} {name}" for label, where, name in SWEPT])
def test_every_parameter_takes_the_values_that_broke_one(known_good, fuzzed_server, session, label, where, name):
    method, path = label.split(" ", 1)
    operation = schema[path][method]
    for value in SWEPT_VALUES:
        good = {key: dict(part) for key, part in known_good[label].items()}
        # a header carries UTF-8 bytes (the HTTP client would refuse '٣' as text)
        good.setdefault(WHERE[where], {})[name] = value.encode() if where == "header" else value
        case = operation.Case(**good, **({"media_type": "application/json"} if "body" in good else {}))
        response = case.call(base_url=fuzzed_server.url, session=session, timeout=30)
        COUNTS["swept requests"] += 1
        case.validate_response(response, checks=CHECKS)
