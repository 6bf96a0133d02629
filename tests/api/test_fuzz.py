"""Property-based fuzzing of every operation of the OpenAPI document with schemathesis: valid and
invalid (negative) requests, a fixed seed, bounded examples, each sent twice: as generated, and
inside a real scenario (`?scenario=<id>`, where the server also records the API call). They go
over HTTP to `python run.py`, on kept-alive connections, so every request must get an answer (a
connection the server closed without one fails the test). Every answer must be below 500, a 4xx
must be the JSON error shape, and every answer must match what the document says (status codes,
content types, schemas). `make fuzz` runs the same test with many more examples
(CRM_FUZZ_EXAMPLES) and prints the counts that the README's reliability section quotes."""
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
          f"({COUNTS['scenario requests']} of them inside a scenario; {statuses}), {COUNTS['#5xx']} answers of 5xx")
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
