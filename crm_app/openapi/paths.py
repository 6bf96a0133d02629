"""Every route of the CRM as an OpenAPI operation (an extension describes its own routes in its
ApiPart, with the helpers here). The CRM API's operationIds and descriptions are written for a
model that calls them as tools: say what the operation is for, when to use it, and what each
parameter takes."""
from __future__ import annotations

from ..api.idempotency import HEADER as IDEMPOTENCY_HEADER
from ..api.idempotency import REPLAYED
from ..request_guard import MAX_BODY_BYTES
from ..scope import SCENARIO_ID
from ..services.fares import FARES
from .schemas import CODE, DATE, IDEMPOTENCY_KEY_LENGTH, obj, ref

JSON = "application/json"
SCENARIO_PATTERN = SCENARIO_ID.pattern

PARAMETERS = {
    "ScenarioQuery": {
        "name": "scenario", "in": "query", "required": False,
        "description": "The scenario to act in (the `id` from /generate-random-scenario). Left out, the call "
                       "acts on the shared sandbox dataset; given but empty, it is refused with 400.",
        "schema": {"type": "string", "pattern": SCENARIO_PATTERN},
    },
    "ScenarioHeader": {
        "name": "X-Scenario-Id", "in": "header", "required": False,
        "description": "The scenario to act in, as a header instead of ?scenario= (the query wins when both "
                       "are given). Given but empty, it is refused with 400.",
        "schema": {"type": "string", "pattern": SCENARIO_PATTERN},
    },
    "Code": {
        "name": "code", "in": "path", "required": True,
        "description": "The booking's six-character confirmation code, like GWHVKK (case-insensitive)",
        "schema": {"type": "string", "minLength": 1, "maxLength": 40},
    },
    "IdempotencyKey": {
        "name": IDEMPOTENCY_HEADER, "in": "header", "required": False,
        "description": "A unique key per intended write (a UUID, say). Resending the same request with the "
                       "same key answers the first result again without writing (header "
                       f"`{REPLAYED}: true`); the same key with a different request answers 409. Send a new "
                       "key for each new write.",
        "schema": {"type": "string", "pattern": f"^[\\x21-\\x7e]{{1,{IDEMPOTENCY_KEY_LENGTH}}}$"},
    },
}

SCENARIO = [{"$ref": "#/components/parameters/ScenarioQuery"}, {"$ref": "#/components/parameters/ScenarioHeader"}]
CODE_PARAM = {"$ref": "#/components/parameters/Code"}
IDEMPOTENCY = {"$ref": "#/components/parameters/IdempotencyKey"}


FLIGHT_ID = {"type": "string", "maxLength": 40}


def query(name: str, description: str, schema: dict | None = None, required: bool = False) -> dict:
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": schema or {"type": "string", "maxLength": 200}}


def error(description: str) -> dict:
    return {"description": description, "content": {JSON: {"schema": ref("Error")}}}


def answer(schema: dict, description: str, headers: dict | None = None) -> dict:
    found = {"description": description, "content": {JSON: {"schema": schema}}}
    if headers:
        found["headers"] = headers
    return found


ANY_4XX = error("Another request error (the error shape is the same for every 4xx)")
TOO_LARGE = error(f"The request body is larger than {MAX_BODY_BYTES} bytes")
REPLAY_HEADERS = {REPLAYED: {"description": "`true` when this is the stored answer of an earlier request "
                                            "with the same Idempotency-Key", "schema": {"type": "string"}}}


def body(schema: dict, description: str) -> dict:
    return {"required": True, "description": description, "content": {JSON: {"schema": schema}}}


def operation(operation_id: str, summary: str, description: str, responses: dict, parameters=(),
              request_body: dict | None = None, tags=("crm",)) -> dict:
    found = {"operationId": operation_id, "summary": summary, "description": description, "tags": list(tags),
             "parameters": list(parameters), "responses": {**responses, "4XX": ANY_4XX}}
    if request_body:
        found["requestBody"] = request_body
    return found


def write_responses(ok_status: str, ok_description: str, conflict: str) -> dict:
    return {
        ok_status: answer(ref("BookingAnswer"), ok_description, REPLAY_HEADERS),
        "400": error("A field is missing or wrong: `fields` names each wrong field with its message"),
        "404": error("No booking with this code in the dataset, or an unknown scenario"),
        "409": error(conflict),
        "413": TOO_LARGE,
    }


CRM_PATHS = {
    "/api/policy": {"get": operation(
        "get_policy", "The airline's policy for changes, cancellations and name corrections",
        "The policy a rep follows, as markdown: what each fare (Basic, Standard, Flex) allows and costs "
        "for a change or a cancellation, the 24-hour rules, name corrections and how a caller is verified.",
        {"200": answer({"type": "object", "properties": {"policy": {"type": "string"}},
                        "required": ["policy"], "additionalProperties": False}, "The policy text")},
        [],
    )},
    "/api/kb/search": {"get": operation(
        "search_knowledge_base", "Search the airline's knowledge base",
        "Finds the knowledge base's articles, and the scenario's bulletins (weather waivers, schedule changes, "
        "temporary rules), by their words, best first: those matching more of the words, then those whose title "
        "matches, then shorter titles. Each result has the article's `id` (read it whole with read_article), its "
        "title, a snippet with the matched words in **bold**, its effective date and, when a newer article "
        "replaced it, `superseded_by`: the article in force.",
        {"200": answer({"type": "object", "properties": {"results": {"type": "array", "items": ref("KbResult")}},
                        "required": ["results"], "additionalProperties": False}, "The matching articles, best first"),
         "400": error("No words to search for, or a query over 200 characters")},
        [query("q", "The words to search for, e.g. 'gold delay certificate' or 'pets in the cabin'", required=True),
         *SCENARIO],
    )},
    "/api/kb/articles": {"get": operation(
        "list_articles", "List the knowledge base's articles",
        "Every article of the knowledge base (not the scenario's bulletins, which only search finds): id, title, "
        "effective date and `superseded_by`, the article in force that replaced it (null when it is in force).",
        {"200": answer({"type": "object", "properties": {"articles": {"type": "array", "items": ref("KbArticle")}},
                        "required": ["articles"], "additionalProperties": False}, "Every article")},
        [],
    )},
    "/api/kb/articles/{id}": {"get": operation(
        "read_article", "Read one knowledge-base article or bulletin",
        "The article (or a bulletin of the scenario) with its body. An article with `superseded_by` is no longer "
        "in force: read the article it names.",
        {"200": answer({"type": "object", "properties": {"article": ref("KbArticleBody")},
                        "required": ["article"], "additionalProperties": False}, "The article"),
         "404": error("No article or bulletin with this id, or an unknown scenario")},
        [{"name": "id", "in": "path", "required": True, "description": "The article's id, as search gives it",
          "schema": {"type": "string", "minLength": 1, "maxLength": 80}}, *SCENARIO],
    )},
    "/api/airports": {"get": operation(
        "search_airports", "Find airports by code, city or name",
        "Lists the airports the CRM sells whose IATA code, city or name contains the text (taken "
        "literally), exact code matches first. Use it to turn a city the customer names into the IATA "
        "code that search_flights needs.",
        {"200": answer({"type": "object", "properties": {"airports": {"type": "array", "items": ref("Airport")}},
                        "required": ["airports"], "additionalProperties": False}, "The matching airports")},
        [query("q", "Part of an airport code, city or name, e.g. 'new york' or 'JFK'; empty lists all 40")],
    )},
    "/api/flights/search": {"get": operation(
        "search_flights", "Search the flights of one route on one day (and the way back)",
        "Lists the flights from one airport to another on a day, sorted by departure time; with `return` "
        "also the flights back on that day. Each flight has an `id` to book it with. Flights are sold "
        "from today up to one year ahead. Every wrong parameter is reported at once in `fields`.",
        {"200": answer({"type": "object", "properties": {
            "from": {"type": "string"}, "to": {"type": "string"}, "date": {"type": "string", "format": "date"},
            "flights": {"type": "array", "items": ref("Flight")},
            "return_date": {"type": "string", "format": "date"},
            "return_flights": {"type": "array", "items": ref("Flight")}},
            "required": ["from", "to", "date", "flights"], "additionalProperties": False},
            "The outward flights, and with `return` the return flights"),
         "400": error("A parameter is missing or wrong; `fields` has one message per wrong parameter")},
        [query("from", "Departure airport: IATA code (JFK) or label ('New York, NY (JFK)')", required=True),
         query("to", "Arrival airport: IATA code or label; must differ from `from`", required=True),
         query("date", "Departure date, YYYY-MM-DD or MM/DD/YYYY", DATE, required=True),
         query("return", "Return date for a return trip (not before `date`); leave out for one way", DATE)],
    )},
    "/api/quote": {"get": operation(
        "get_quote", "Price chosen flights before booking",
        "The price lines (one per flight, then taxes and fees) and the total of a trip made of the given "
        "flight ids, as book_flight would charge it.",
        {"200": answer(ref("Quote"), "Price lines and total"),
         "400": error("A flight id is missing, unknown, not sellable, or the flights do not form a trip")},
        [query("outward", "id of the outward flight (from search_flights)",
               FLIGHT_ID, required=True),
         query("return", "id of the return flight; leave out for a one-way trip", FLIGHT_ID)],
    )},
    "/api/passenger/validate": {"post": operation(
        "validate_passenger", "Check passenger details without booking",
        "Checks the six passenger fields as book_flight would and answers them normalized, or 400 with "
        "one message per wrong field.",
        {"200": answer({"type": "object", "properties": {"passenger": ref("Passenger")}, "required": ["passenger"],
                        "additionalProperties": False}, "The details, normalized"),
         "400": error("A field is missing or wrong; see `fields`"), "413": TOO_LARGE},
        request_body=body({"type": "object", "properties": {"passenger": ref("PassengerInput")},
                           "required": ["passenger"]}, "The passenger to check"),
    )},
    "/api/bookings": {"get": operation(
        "search_bookings", "Find bookings by the passenger's last name and a travel date",
        "The bookings of a passenger with this last name (any case) that have a flight departing on the "
        "date, at most 20, in confirmation-code order: code, status, the passenger's names, the route and "
        "the flights' dates. Use it when the caller does not have the confirmation code; with two matches, "
        "ask which.",
        {"200": answer(obj({"bookings": {"type": "array", "items": obj({
            "code": {"type": "string"}, "status": {"type": "string"}, "first_name": {"type": "string"},
            "last_name": {"type": "string"}, "from": {"type": "string"}, "to": {"type": "string"},
            "dates": {"type": "array", "items": {"type": "string", "format": "date"}}},
            required=("code", "status", "first_name", "last_name", "from", "to", "dates"))}},
            required=("bookings",)), "The matching bookings (none: an empty list)"),
         "400": error("The last name or the date is missing or malformed")},
        [query("last_name", "The passenger's last name, e.g. 'Stephens'", required=True),
         query("date", "A date one of the booking's flights departs, YYYY-MM-DD or MM/DD/YYYY", required=True),
         *SCENARIO],
    ), "post": operation(
        "book_flight", "Book flights for a passenger and pay",
        "Creates a confirmed booking from flight ids (from search_flights), the passenger's details and "
        "a card, in one step, and answers it with its new confirmation code. Each call that succeeds makes "
        "a new booking: call it once per booking.",
        write_responses("201", "The new booking", "The Idempotency-Key was used for a different request"),
        [*SCENARIO, IDEMPOTENCY],
        body({"type": "object", "properties": {
            "outward_flight_id": {"type": "integer", "minimum": 1, "description": "id of the outward flight"},
            "return_flight_id": {"type": ["integer", "null"], "minimum": 1,
                                 "description": "id of the return flight; null or left out for one way"},
            "passenger": ref("PassengerInput"), "payment": ref("PaymentInput")},
            "required": ["outward_flight_id", "passenger", "payment"]}, "Flights, passenger and card"),
    )},
    "/api/bookings/{code}": {"get": operation(
        "get_booking", "Look a booking up by its confirmation code",
        "The booking with this confirmation code: status, flights, passenger, card (last four digits "
        "only) and price. Use it to answer questions about a booking or before changing it.",
        {"200": answer(ref("BookingAnswer"), "The booking"),
         "400": error("The code is empty"), "404": error("No booking with this code, or an unknown scenario")},
        [CODE_PARAM, *SCENARIO],
    )},
    "/api/bookings/{code}/cancel": {"post": operation(
        "cancel_booking", "Cancel a booking",
        "Cancels the booking. The body repeats its confirmation code as the customer confirmed it; a "
        "different code is refused. A cancelled booking cannot be changed any more.",
        write_responses("200", "The cancelled booking",
                        "The booking is already cancelled, or the Idempotency-Key was used for a different request"),
        [CODE_PARAM, *SCENARIO, IDEMPOTENCY],
        body({"type": "object", "properties": {"confirmation_code": {
            **CODE, "description": "The booking's code, re-entered to confirm the cancellation"}},
            "required": ["confirmation_code"]}, "The re-entered confirmation code"),
    )},
    "/api/bookings/{code}/passenger": {"patch": operation(
        "update_passenger", "Change the passenger's details on a booking",
        "Changes only the passenger fields given (title, first_name, last_name, email, gender, "
        "date_of_birth); the others keep their values.",
        write_responses("200", "The changed booking",
                        "The booking is cancelled, or the Idempotency-Key was used for a different request"),
        [CODE_PARAM, *SCENARIO, IDEMPOTENCY],
        body({"oneOf": [ref("PassengerChanges"), {"type": "object", "properties": {
            "passenger": ref("PassengerChanges")}, "required": ["passenger"], "additionalProperties": False}]},
            "The fields to change, as they are or wrapped as {\"passenger\": {...}}"),
    )},
    "/api/bookings/{code}/flights": {"put": operation(
        "change_flights", "Move a booking to other flights on the same route",
        "Replaces the booking's flights with the given ones (same route; a return flight exactly when the "
        "booking is a return trip) at today's fares; a free change of a booking the airline disrupted (see the "
        "policy) keeps the fares paid. Find the new flight ids with search_flights first; "
        "quote_flight_change tells the price difference before saving.",
        write_responses("200", "The changed booking",
                        "The booking is cancelled, or the Idempotency-Key was used for a different request"),
        [CODE_PARAM, *SCENARIO, IDEMPOTENCY],
        body(ref("FlightIds"), "The new flights"),
    )},
    "/api/bookings/{code}/flights/quote": {"get": operation(
        "quote_flight_change", "Price a change of a booking's flights before saving it",
        "What the booking would cost on the given flights: the new price lines and total, the total "
        "paid now, and the signed difference. The same checks as change_flights; nothing is saved.",
        {"200": answer(ref("ChangeQuote"), "The new price and the difference"),
         "400": error("A flight id is missing or wrong, or the flights do not fit the booking"),
         "404": error("No booking with this code, or an unknown scenario"),
         "409": error("The booking is cancelled")},
        [CODE_PARAM, *SCENARIO,
         query("outward", "id of the new outward flight", FLIGHT_ID, required=True),
         query("return", "id of the new return flight (return trips only)", FLIGHT_ID)],
    )},
    "/api/bookings/{code}/fare": {"post": operation(
        "upgrade_fare", "Raise a booking's fare family, paying the difference",
        "Raises the booking's fare (Basic to Standard to Flex; never lowers it): its seats are repriced in the "
        "new family and the difference is paid. The policy allows it up to 24 hours before departure, and the "
        "new fare's rules then apply (quote_fare_upgrade tells the terms first).",
        write_responses("200", "The upgraded booking",
                        "The booking is cancelled, or the Idempotency-Key was used for a different request"),
        [CODE_PARAM, *SCENARIO, IDEMPOTENCY],
        body(ref("FareChoice"), "The new fare family"),
    )},
    "/api/bookings/{code}/fare/quote": {"get": operation(
        "quote_fare_upgrade", "Price a fare upgrade before doing it",
        "What the booking would cost in a higher fare family: the new price lines and total, the total paid "
        "now, the difference, and the policy's terms. Nothing is saved.",
        {"200": answer(ref("FareQuote"), "The new price, the difference and the terms"),
         "400": error("No fare, an unknown one, or one no higher than the booking's"),
         "404": error("No booking with this code, or an unknown scenario"),
         "409": error("The booking is cancelled")},
        [CODE_PARAM, *SCENARIO, query("fare", "the higher fare family: Standard or Flex",
                                      {"type": "string", "enum": list(FARES)}, required=True)],
    )},
}


def config_path(suites: list[str]) -> dict:
    """/api/config, whose `suite` is one of the suites the app serves: those its scenario backend
    registered (crm_app.suite_look.suite_names), any text when it has none."""
    suite = {"type": "string", **({"enum": suites} if suites else {}),
             "description": "The scenario suite the server serves (run.py --suite, CRM_SUITE)"}
    return {"get": operation(
        "get_config", "The CRM's simulated today and sellable dates",
        "Today's date in the CRM's simulated clock, the first and last dates flights are sold for, and "
        "the scenario the request names (checked to exist).",
        {"200": answer({"type": "object", "properties": {
            "today": {"type": "string", "format": "date"}, "first_date": {"type": "string", "format": "date"},
            "last_date": {"type": "string", "format": "date"},
            "earliest_birth_date": {"type": "string", "format": "date"},
            "scenario": {"type": ["string", "null"]}, "suite": suite,
            "scenario_suite": {"type": ["string", "null"], **({"enum": [*suites, None]} if suites else {}),
                               "description": "The suite of the scenario the request names (null without one)"},
            "ui_variant": {"type": "integer", "minimum": 0,
                           "description": "The UI variant of the scenario the request names (0 without one)"},
            "ui_variants": {"type": "array", "description": "The UI variants a scenario may ask for (ui_variant)",
                            "items": {"type": "object", "properties": {
                                "id": {"type": "integer"}, "description": {"type": "string"}},
                                "required": ["id", "description"], "additionalProperties": False}},
            "customer_variants": {"type": "array", "description": "The customer variants (how the caller speaks) "
                                                                  "a hard scenario may ask for (customer_variant); "
                                                                  "empty without a scenario backend",
                                  "items": {"type": "object", "properties": {
                                      "id": {"type": "integer"}, "name": {"type": "string"},
                                      "description": {"type": "string"}},
                                      "required": ["id", "name", "description"], "additionalProperties": False}}},
            "required": ["today", "first_date", "last_date", "scenario"], "additionalProperties": False},
            "The configuration"),
         "400": error("A malformed or empty scenario id"), "404": error("An unknown scenario")},
        SCENARIO,
    )}


def crm_paths(suites: list[str]) -> dict:
    """The CRM API's operations (/api/config, which names the app's suites, last)."""
    return {**CRM_PATHS, "/api/config": config_path(suites)}


PAGE_PATHS = {
    "/": {"get": operation(
        "open_crm_page", "The CRM's single page (HTML)",
        "The page a person or a browser agent works in. With ?scenario= everything done on it belongs to "
        "that scenario and is recorded.",
        {"200": {"description": "The HTML page", "content": {"text/html": {"schema": {"type": "string"}}}},
         "400": error("An empty or malformed scenario id")},
        SCENARIO, tags=("page",),
    )},
    "/static/{filename}": {"get": operation(
        "get_static_file", "A script, stylesheet or other file of the page",
        "The page's own JavaScript modules and stylesheet.",
        {"200": {"description": "The file", "content": {"*/*": {"schema": {"type": "string"}}}},
         "404": error("No such file")},
        [{"name": "filename", "in": "path", "required": True, "description": "Path under static/, e.g. app.js",
          "schema": {"type": "string", "minLength": 1, "maxLength": 200}}], tags=("page",),
    )},
    "/ui-variant/{number}/style.css": {"get": operation(
        "get_variant_stylesheet", "The stylesheet of a UI variant's page",
        "static/style.css with its class selectors renamed as the page of UI variant `number` names its "
        "classes (GET /api/config lists the variants).",
        {"200": {"description": "The stylesheet", "content": {"text/css": {"schema": {"type": "string"}}}},
         "404": error("No UI variant of that number other than 0")},
        [{"name": "number", "in": "path", "required": True, "description": "A UI variant other than 0",
          "schema": {"type": "integer", "minimum": 1}}], tags=("page",),
    )},
    "/openapi.json": {"get": operation(
        "get_openapi", "This document",
        "The OpenAPI 3.1 description of every route of the server.",
        {"200": answer({"type": "object"}, "The OpenAPI document")}, tags=("page",),
    )},
    "/api/docs": {"get": operation(
        "open_api_docs", "This document as an interactive page (HTML)",
        "Swagger UI on /openapi.json: every operation with its parameters, its request body with an example "
        "made from its schema, its answers, and a form to try it against this server. Its files are served "
        "here; nothing is fetched elsewhere.",
        {"200": {"description": "The HTML page", "content": {"text/html": {"schema": {"type": "string"}}}}},
        tags=("page",),
    )},
    "/api/docs/{filename}": {"get": operation(
        "get_api_docs_file", "A file of the interactive API page",
        "Swagger UI's script and stylesheet, and the script that starts it, as the API page (/api/docs) loads them.",
        {"200": {"description": "The file", "content": {"*/*": {"schema": {"type": "string"}}}},
         "404": error("No such file")},
        [{"name": "filename", "in": "path", "required": True,
          "description": "swagger-ui-bundle.js, swagger-ui.css or start.js",
          "schema": {"type": "string", "minLength": 1, "maxLength": 200}}], tags=("page",),
    )},
}
