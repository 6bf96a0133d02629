"""Regression tests for the inputs that once answered 500 (five root causes found by fuzzing) and
for the limits that keep such inputs out: every one now gets a 4xx JSON error and writes nothing."""
from __future__ import annotations

import http.client
import json
import sys

import pytest

from crm_app.server import BackgroundServer
from scenarios.app import create_app

from ..conftest import TEST_CONFIG
from .helpers import PASSENGER, PAYMENT, booking_payload, db_rows

WRITES = [("post", "/api/bookings"), ("post", "/api/bookings/{code}/cancel"),
          ("patch", "/api/bookings/{code}/passenger"), ("put", "/api/bookings/{code}/flights"),
          ("post", "/api/passenger/validate")]


@pytest.fixture(scope="module")
def app(databases, tmp_path_factory):
    """One app for the module: every test compares the stored rows before and after itself."""
    return create_app({**TEST_CONFIG, "DATABASE_URL": databases.new(tmp_path_factory.mktemp("hostile"))})


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


def assert_error(response, status: int = 400, contains: str = "") -> dict:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.content_type == "application/json"
    assert isinstance(response.json["error"], str) and contains in response.json["error"]
    return response.json


# ---- 1. JSON nested 1,000 deep (RecursionError) ----

@pytest.mark.parametrize("method, route", WRITES + [("post", "/api/events?scenario={scenario}")])
@pytest.mark.parametrize("depth", [17, 1000, 30_000])  # 30,000 deep is 60 KB, inside the body limit
def test_deeply_nested_json_is_a_400(app, client, booked, method, route, depth):
    scenario = client.get("/generate-random-scenario?task=TASK_FIND_BOOKING&seed=1").json["id"] if "{scenario}" in route else ""
    before = db_rows(app)
    body = '{"passenger": ' + "[" * depth + "]" * depth + "}"
    response = getattr(client, method)(route.format(code=booked["code"], scenario=scenario), data=body,
                                       content_type="application/json")
    assert_error(response, 400, "nested more than 16 levels")
    assert db_rows(app) == before


# ---- 2. an integer of 2^63 or more as a flight id (OverflowError in SQLite) ----

@pytest.mark.parametrize("flight_id", [2**63, 2**63 - 1, 10**30, -(2**63) - 1, 0])
def test_huge_flight_ids_are_unknown_flights(app, client, flight_id):
    before = db_rows(app)
    payload = booking_payload(client)
    for field in ("outward_flight_id", "return_flight_id"):
        response = client.post("/api/bookings", json={**payload, field: flight_id})
        assert_error(response, 400, "Choose the")
        assert field in response.json["fields"]
    assert_error(client.get(f"/api/quote?outward={flight_id}"), 400, "Choose the outward flight")
    assert db_rows(app) == before


# ---- 3. non-ASCII digits and numbers over 4,300 digits (isdigit() then int()) ----

@pytest.mark.parametrize("text", ["²", "١٢", "٣" * 3, "1" * 5000, "9" * 20, "-1", "1e3", "0x10"])
def test_seeds_and_ids_that_are_not_plain_numbers(client, text):
    assert_error(client.get("/generate-random-scenario", query_string={"seed": text}), 400, "seed must be")
    assert_error(client.get("/api/quote", query_string={"outward": text}), 400, "Choose the outward flight")


# Every kind of digit that str.isdigit() takes and ASCII does not: int() refuses the first three
# (superscript, subscript, circled) and takes the next three (Arabic-Indic, fullwidth, mathematical).
NOT_ASCII_DIGITS = ["²", "₅", "①", "٣", "１２", "𝟓", "1²"]
SCENARIO_ONLY = "scenario"
# (route, the other parameters it needs to read this one, the integer parameter, where it is asked)
INTEGER_QUERY = [
    *[(route, {"task": " "}, name, None) for route in ("/generate-random-scenario", "/get-random-scenario")
      for name in ("seed", "ui_variant", "initial_state")],
    ("/reset-scenario", {}, "initial_state", SCENARIO_ONLY),
    ("/evaluate", {}, "timeline", SCENARIO_ONLY),
    ("/api/quote", {}, "outward", None),
    ("/api/quote", {"outward": "{outward}"}, "return", None),
    ("/api/bookings/{code}/flights/quote", {}, "outward", None),
    ("/api/bookings/{code}/flights/quote", {"outward": "{outward}"}, "return", None),
]
# (method, route, the integer field of its body, where it is asked)
INTEGER_BODY = [("post", "/api/bookings", "outward_flight_id", None), ("post", "/api/bookings", "return_flight_id", None),
                ("put", "/api/bookings/{code}/flights", "outward_flight_id", None),
                ("put", "/api/bookings/{code}/flights", "return_flight_id", None),
                ("post", "/api/events", "seq", SCENARIO_ONLY)]


def where_asked(table: list[tuple]) -> list[tuple]:
    """Every case of `table` with each place it is asked in: the sandbox and a scenario, or a scenario
    only (its last field)."""
    return [(*case, place) for case in table
            for place in (("scenario",) if case[-1] == SCENARIO_ONLY else ("sandbox", "scenario"))]


@pytest.fixture
def place(request, client) -> dict:
    """Where the requests go (the scenario query, "" for the sandbox), a return-trip booking there and its flights."""
    if request.param == "sandbox":
        code = client.post("/api/bookings", json=booking_payload(client)).json["booking"]["code"]
        scope = ""
    else:
        made = client.get("/generate-random-scenario?suite=paper&task=TASK_CANCEL_FLIGHT&seed=2").json  # return trips
        code, scope = made["details"]["confirmation-code"], made["id"]
    flights = client.get(f"/api/bookings/{code}", query_string={"scenario": scope} if scope else {}).json
    outward, back = (flight["id"] for flight in flights["booking"]["flights"])
    return {"scenario": scope, "code": code, "outward": outward, "return": back}


def assert_names(response, name: str) -> None:
    error = assert_error(response, 400)
    assert name in error["error"] or name in error.get("fields", {}), error


@pytest.mark.parametrize("route, others, name, asked_in, place", where_asked(INTEGER_QUERY), indirect=["place"],
                         ids=[f"{route} {name} {place}" for route, _, name, _, place in where_asked(INTEGER_QUERY)])
def test_digits_that_are_not_ascii_in_an_integer_query_parameter_name_it(client, place, route, others, name, asked_in):
    query = {key: value.format(**place) for key, value in others.items()}
    query.update({"scenario": place["scenario"]} if place["scenario"] else {})
    for digits in NOT_ASCII_DIGITS:
        assert_names(client.get(route.format(**place), query_string={**query, name: digits}), name)


@pytest.mark.parametrize("method, route, name, asked_in, place", where_asked(INTEGER_BODY), indirect=["place"],
                         ids=[f"{method} {route} {name} {place}" for method, route, name, _, place in where_asked(INTEGER_BODY)])
def test_digits_that_are_not_ascii_in_an_integer_body_field_name_it(app, client, place, method, route, name, asked_in):
    bodies = {"/api/bookings": booking_payload(client),
              "/api/bookings/{code}/flights": {"outward_flight_id": place["outward"], "return_flight_id": place["return"]},
              "/api/events": {"page": "p1", "seq": 1, "action": "click", "target": "nav-home"}}
    query = {"scenario": place["scenario"]} if place["scenario"] else {}
    before = db_rows(app)
    for digits in NOT_ASCII_DIGITS:
        response = getattr(client, method)(route.format(**place), query_string=query, json={**bodies[route], name: digits})
        assert_names(response, name)
    assert db_rows(app) == before


def test_every_digit_that_is_not_ascii_is_refused_by_name(client):
    """Every character that str.isdigit() takes beyond ASCII, in the parameter that once answered 500."""
    digits = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isdigit() and not chr(code).isascii()]
    assert len(digits) > 700
    for digit in digits:
        assert_names(client.get("/generate-random-scenario", query_string={"task": " ", "ui_variant": digit}),
                     "ui_variant")


def test_digits_that_are_not_ascii_name_no_stylesheet(client):
    for digits in NOT_ASCII_DIGITS:
        assert_error(client.get(f"/ui-variant/{digits}/style.css"), 404)
    assert client.get("/ui-variant/3/style.css").status_code == 200


@pytest.mark.parametrize("field, value, message", [
    ("card_number", "٤١١١١١١١١١١١١١١١", "Card number is not valid"),  # Arabic-Indic digits
    ("card_number", "4111²" + "1" * 11, "Card number is not valid"),
    ("security_code", "١٢٣", "Security code must be 3 or 4 digits"),
    ("expiry", "٠٤/٢٩", "Expiry must be MM/YY"),
])
def test_card_fields_take_ascii_digits_only(app, client, field, value, message):
    before = db_rows(app)
    payload = booking_payload(client)
    response = client.post("/api/bookings", json={**payload, "payment": {**PAYMENT, field: value}})
    assert assert_error(response)["fields"] == {field: message}
    assert db_rows(app) == before


# ---- 4. a lone surrogate in any text field (UnicodeEncodeError at commit) ----

SURROGATE = "Bill\ud800"


def _with_surrogate(payload: dict, path: tuple[str, ...]) -> str:
    """The payload as JSON text with one field's value replaced by a string holding a lone
    surrogate (json.dumps escapes it as \\ud800, as a hostile client would send it)."""
    value = json.loads(json.dumps(payload))
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = SURROGATE
    return json.dumps(value)


@pytest.mark.parametrize("path", [("passenger", field) for field in PASSENGER]
                         + [("payment", field) for field in PAYMENT])
def test_a_lone_surrogate_in_any_booking_field_is_a_400(app, client, path):
    before = db_rows(app)
    body = _with_surrogate(booking_payload(client), path)
    response = client.post("/api/bookings", data=body, content_type="application/json")
    error = assert_error(response, 400, "not allowed")
    assert error["fields"] == {".".join(path): "This field contains a character that is not allowed (NUL or a lone surrogate)"}
    assert db_rows(app) == before


@pytest.mark.parametrize("method, route, body", [
    ("post", "/api/bookings/{code}/cancel", {"confirmation_code": "x"}),
    ("patch", "/api/bookings/{code}/passenger", {"first_name": "x"}),
    ("patch", "/api/bookings/{code}/passenger", {"passenger": {"email": "x"}}),
    ("post", "/api/passenger/validate", {"passenger": dict(PASSENGER)}),
])
def test_a_lone_surrogate_or_nul_in_other_writes_is_a_400(app, client, booked, method, route, body):
    before = db_rows(app)
    for bad in ("\ud800", "\udfff", "a\x00b"):
        text = json.dumps(body).replace('"x"', json.dumps(bad)).replace('"Bill"', json.dumps(bad))
        response = getattr(client, method)(route.format(code=booked["code"]), data=text,
                                           content_type="application/json")
        assert_error(response, 400, "not allowed")
    assert db_rows(app) == before


def test_a_lone_surrogate_in_an_event_is_a_400(client):
    scenario = client.get("/generate-random-scenario?task=TASK_FIND_BOOKING&seed=1").json
    event = {"page": "p1", "seq": 1, "action": "fill", "target": "find-code", "value": "AB\udc00"}
    response = client.post(f"/api/events?scenario={scenario['id']}", data=json.dumps(event),
                           content_type="application/json")
    assert_error(response, 400, "value contains a character that is not allowed")
    assert client.get(f"/evaluate?scenario={scenario['id']}").json["num_actions"] == 0


def test_nul_in_the_path_or_query_is_a_400(client):
    assert_error(client.get("/api/bookings/AB%00CD"), 400, "not allowed")
    assert_error(client.get("/api/airports?q=a%00"), 400, "not allowed")


# ---- 5. a request line over 64 KB (the server's HTML 414) and other limits of the HTTP server ----

@pytest.fixture
def server(app):
    with BackgroundServer(app) as running:
        yield running.url.removeprefix("http://").split(":")


def _raw(server, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    host, port = server
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.putrequest(method, path, skip_accept_encoding=True)
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    answer = response.status, response.getheader("Content-Type"), json.loads(response.read())
    connection.close()
    return answer


def test_a_request_line_over_64_kb_is_a_json_414(server):
    status, content_type, body = _raw(server, "GET", "/api/airports?q=" + "a" * 70_000)
    assert (status, content_type) == (414, "application/json")
    assert body == {"error": "The request line is longer than 65536 bytes"}


def test_a_header_over_64_kb_is_a_json_431(server):
    status, content_type, body = _raw(server, "GET", "/api/config", headers={"X-Big": "a" * 70_000})
    assert (status, content_type) == (431, "application/json") and body["error"]


def test_a_long_query_under_the_limit_finds_nothing(server):
    # 60,000 characters reach the app: no airport contains them (SQLite refuses such a LIKE pattern).
    assert _raw(server, "GET", "/api/airports?q=" + "a" * 60_000) == (200, "application/json", {"airports": []})


def test_a_body_over_64_kb_is_a_json_413(app, server, client, booked):
    before = db_rows(app)
    big = json.dumps({**booking_payload(client), "padding": "x" * 70_000}).encode()
    status, content_type, body = _raw(server, "POST", "/api/bookings", big, {"Content-Type": "application/json"})
    assert (status, content_type) == (413, "application/json")
    assert body == {"error": "The request body is larger than 65536 bytes"}
    # whatever its content type, and on every write
    assert_error(client.post("/api/passenger/validate", data=b"x" * 70_000, content_type="text/plain"), 413)
    assert_error(client.put(f"/api/bookings/{booked['code']}/flights", data=big, content_type="application/json"), 413)
    assert db_rows(app) == before


# ---- length limits that match the columns ----

@pytest.mark.parametrize("section, field, length, message", [
    ("passenger", "first_name", 61, "First name must be at most 60 characters"),
    ("passenger", "last_name", 61, "Last name must be at most 60 characters"),
    ("passenger", "email", 121, "Email address must be at most 120 characters"),
    ("payment", "name_on_card", 121, "Name on card must be at most 120 characters"),
])
def test_text_longer_than_its_column_is_refused(app, client, section, field, length, message):
    payload = booking_payload(client)
    value = ("a" * (length - 12) + "@example.com") if field == "email" else "a" * length
    payload[section] = {**payload[section], field: value}
    before = db_rows(app)
    assert assert_error(client.post("/api/bookings", json=payload))["fields"] == {field: message}
    assert db_rows(app) == before
    fits = value[1:]  # one character less: exactly the column's length
    payload[section] = {**payload[section], field: fits}
    assert client.post("/api/bookings", json=payload).status_code == 201


def test_a_two_million_character_email_is_not_stored(app, client, booked):
    before = db_rows(app)
    email = "a" * 2_000_000 + "@example.com"
    assert_error(client.patch(f"/api/bookings/{booked['code']}/passenger", json={"email": email}), 413)
    assert_error(client.patch(f"/api/bookings/{booked['code']}/passenger", json={"email": email[-130:]}), 400,
                 "at most 120 characters")
    assert db_rows(app) == before


# ---- the scenario parameter, the airport lookup, the scenario url ----

@pytest.mark.parametrize("route", ["/api/bookings/ABCDEF", "/api/config", "/evaluate", "/reset-scenario", "/"])
def test_an_empty_scenario_is_a_400_not_the_sandbox(client, route):
    for query in ("?scenario=", "?scenario=%20"):
        assert_error(client.get(route + query), 400, "The scenario id is empty")
    assert_error(client.get(route, headers={"X-Scenario-Id": ""}), 400, "The scenario id is empty")


def test_an_empty_scenario_writes_nothing(app, client):
    before = db_rows(app)
    assert_error(client.post("/api/bookings?scenario=", json=booking_payload(client)), 400, "The scenario id is empty")
    assert db_rows(app) == before


@pytest.mark.parametrize("query", ["%", "_", "%%", "__", "\\", "%a", "J_K", "[A-Z]*"])
def test_airport_lookup_takes_wildcards_literally(client, query):
    response = client.get("/api/airports", query_string={"q": query})
    assert response.status_code == 200
    assert response.json == {"airports": []}
    assert [a["code"] for a in client.get("/api/airports?q=jfk").json["airports"]] == ["JFK"]


def test_scenario_url_comes_from_the_public_url_setting(databases, tmp_path, monkeypatch, client):
    default = client.get("/generate-random-scenario?task=TASK_FIND_BOOKING&seed=1",
                         headers={"Host": "crm.internal:8080"}).json
    assert default["url"] == f"http://crm.internal:8080/?scenario={default['id']}"  # the request's own host
    monkeypatch.setenv("CRM_PUBLIC_URL", "https://crm.example.org/lab")
    public = create_app({"DATABASE_URL": databases.new(tmp_path, "p"), "SANDBOX_BOOKINGS": 0}).test_client()
    made = public.get("/generate-random-scenario?task=TASK_FIND_BOOKING&seed=1",
                      headers={"Host": "evil.example.com"}).json
    assert made["url"] == f"https://crm.example.org/lab/?scenario={made['id']}"
    again = public.get(f"/reset-scenario?scenario={made['id']}", headers={"Host": "evil.example.com"}).json
    assert again["url"] == made["url"]


def test_a_public_url_that_is_not_http_stops_the_start(database_url):
    with pytest.raises(ValueError, match="must be an http:// or https:// URL"):
        create_app({"DATABASE_URL": database_url, "PUBLIC_URL": "crm.example.org"})


# ---- messages that say the right thing ----

@pytest.mark.parametrize("section, field, value, message", [
    ("passenger", "title", "", "Choose a title"),
    ("passenger", "gender", " ", "Choose a gender"),
    ("passenger", "date_of_birth", "1899-12-31", "Date of birth must be on or after 01/01/1900"),
    ("passenger", "date_of_birth", "2026-06-01", "Date of birth must be a past date"),
    ("payment", "card_number", "", "Card number is required"),
    ("payment", "card_number", " - ", "Card number is required"),
    ("payment", "expiry", "", "Expiry is required"),
    ("payment", "security_code", "", "Security code is required"),
])
def test_empty_and_out_of_range_fields_say_what_to_do(client, section, field, value, message):
    payload = booking_payload(client)
    payload[section] = {**payload[section], field: value}
    assert assert_error(client.post("/api/bookings", json=payload))["fields"] == {field: message}


def test_the_earliest_birth_date_is_accepted(client):
    payload = booking_payload(client)
    payload["passenger"] = {**payload["passenger"], "date_of_birth": "1900-01-01"}
    assert client.post("/api/bookings", json=payload).status_code == 201


def test_an_empty_cancel_code_asks_for_the_code(app, client, booked):
    before = db_rows(app)
    for body in ({"confirmation_code": ""}, {"confirmation_code": "  "}, {}):
        response = client.post(f"/api/bookings/{booked['code']}/cancel", json=body)
        assert assert_error(response) == {"error": "Confirmation code is required",
                                          "fields": {"confirmation_code": "Confirmation code is required"}}
    assert db_rows(app) == before


def test_several_wrong_payment_fields_are_summarized_like_passenger_fields(client):
    payload = booking_payload(client)
    payload["payment"] = {"card_number": "", "expiry": "13/40", "security_code": "1", "name_on_card": ""}
    assert assert_error(client.post("/api/bookings", json=payload)) == {
        "error": "Please correct: Card number, Expiry, Security code, Name on card",
        "fields": {"card_number": "Card number is required", "expiry": "Expiry must be MM/YY",
                   "security_code": "Security code must be 3 or 4 digits", "name_on_card": "Name on card is required"}}


def test_a_search_reports_every_wrong_field_once(client):
    response = client.get("/api/flights/search?from=Atlantis&to=&date=2026-13-45&return=2026-05-01")
    assert assert_error(response) == {
        "error": "Please correct: From, To, Departure date, Return date",
        "fields": {"from": "Unknown airport: Atlantis", "to": "Enter the arrival airport",
                   "date": "Departure date must be a date like MM/DD/YYYY or YYYY-MM-DD (got 2026-13-45)",
                   "return": "Return date must be between 06/01/2026 and 06/01/2027"}}
    one = client.get("/api/flights/search?from=JFK&to=JFK&date=2026-07-07")
    assert assert_error(one) == {"error": "From and To must be different airports",
                                 "fields": {"to": "From and To must be different airports"}}
