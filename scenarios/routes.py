"""HTTP routes of the scenario backend: generate, reset and evaluate scenarios; record page events;
the call with the scenario's customer; the operator's read of a scenario's activity with its times.
scenarios/app.py attaches them to the CRM app."""
from __future__ import annotations

import random
import secrets

from flask import Blueprint, abort, current_app, request

from crm_app.api import json_body
from crm_app.api.idempotency import idempotent
from crm_app.db import card_hasher, get_session
from crm_app.scope import scenario_from_request
from crm_app.services.errors import InvalidInput
from crm_app.services.numbers import whole_number
from crm_app.ui_variants import variant_named
from crm_app.web import page_url

from . import call_log, store
from .activity import activity
from .card_data import protector
from .customer import transcript
from .customer.llm_customer import CUSTOMER
from .customer.variants import customer_variant, variant_named as caller_named
from .evaluator import MODALITIES
from .events import clean_event
from .operator import is_operator, without_gold_values
from .suites import catalogue, suite_named
from .tasks import task_named
from .timeline import marks_from

scenario_routes = Blueprint("scenarios", __name__)
call_log.attach(scenario_routes)

MAX_SEED = 2**31 - 1


def _world() -> store.World:
    return store.World.of(current_app, get_session())


def _seed() -> int:
    text = request.args.get("seed", "").strip()
    if not text:
        return secrets.randbelow(MAX_SEED + 1)
    return whole_number(text, "seed", MAX_SEED)


def _initial_state_asked() -> bool:
    """?initial_state=1: the operator's answer also names the bookings the scenario starts from."""
    asked = request.args.get("initial_state", "").strip().lower()
    if asked not in ("", "0", "1", "false", "true"):
        raise InvalidInput("initial_state takes 1 or 0", {"initial_state": "Must be 1 or 0"})
    return asked in ("1", "true")


def _scenario_json(scenario, text: dict, starts_asked: bool) -> dict:
    """The scenario as told: in a suite that hides its details (the hard suite's customer holds the
    facts), only its id, page, briefing and opening line, unless the operator asks."""
    url = page_url(f"?scenario={scenario.id}")
    # Said whenever it was asked for (0 included); a scenario stored before that was recorded asked
    # for the variants other than 0.
    asked = scenario.ui_variant_asked or scenario.ui_variant
    shown_in = {"ui_variant": scenario.ui_variant} if asked else {}
    operator = is_operator()
    starts_from = {"initial_state": store.initial_state(_world(), scenario)} if operator and starts_asked else {}
    if suite_named(scenario.suite).hidden_details and not operator:
        return {"id": scenario.id, "url": url, **shown_in, "instruction": text["instruction"],
                "conversation": text["conversation"]}
    shown_in |= store.caller_shown(scenario)  # the operator's: how the caller speaks would give it away
    return {
        "scenario": scenario.task,
        "id": scenario.id,
        "url": url,
        "seed": scenario.seed,
        **shown_in,
        **text,  # instruction, conversation, details
        **starts_from,  # the bookings it starts from, cards in full: the operator's only, when asked
    }


@scenario_routes.get("/generate-random-scenario")
@scenario_routes.get("/get-random-scenario")
def generate_scenario():
    seed, starts_asked = _seed(), _initial_state_asked()
    # The server's suite (run.py --suite, CRM_SUITE) unless the request names one (?suite=).
    suite = suite_named(request.args.get("suite") or current_app.config["SUITE"])
    name = request.args.get("task", "").strip()
    # Without a task the seed picks one, so that a seed alone still names one scenario.
    task = suite.check(task_named(name)) if name else random.Random(f"task:{seed}").choice(suite.tasks)
    variant = variant_named(request.args.get("ui_variant"), seed)
    caller = caller_named(request.args.get("customer_variant"), seed)
    scenario, text = store.create_scenario(_world(), task, seed, suite, None if variant is None else variant.number,
                                           None if caller is None else caller.number)
    return _scenario_json(scenario, text, starts_asked)


@scenario_routes.get("/api/suites")
def suites():
    """Every suite, its tasks, and for the expert suite each template's split and request kinds."""
    return catalogue()


@scenario_routes.get("/reset-scenario")
def reset_scenario():
    scenario, starts_asked = scenario_from_request(get_session(), required=True), _initial_state_asked()
    text = store.reset_scenario(_world(), scenario)
    return _scenario_json(scenario, text, starts_asked)


@scenario_routes.get("/evaluate")
def evaluate():
    scenario = scenario_from_request(get_session(), required=True)
    operator = is_operator()
    marks = marks_from(request.args.get("timeline", ""))
    result = store.evaluate_scenario(_world(), scenario, _modality(), marks)
    return result if operator else without_gold_values(result)


@scenario_routes.get("/scenario-activity")
def scenario_activity():
    scenario = scenario_from_request(get_session(), required=True)
    if not is_operator():
        abort(403, description="GET /scenario-activity is the operator's: send the operator token "
                               "(X-Operator-Token or ?token=)")
    return activity(get_session(), scenario.id)


def _modality() -> str | None:
    """?modality=ui|api scores the page events or the API calls; left out, the evaluator picks."""
    given = request.args.get("modality", "").strip().lower()
    if given and given not in MODALITIES:
        raise InvalidInput(f"modality must be one of {', '.join(MODALITIES)} (or left out), not {given[:20]!r}")
    return given or None


@scenario_routes.post("/api/events")
def record_event():
    session = get_session()
    scenario = scenario_from_request(session, required=True)
    event = clean_event(json_body(), protector(card_hasher(session)))
    number, created = store.record_event(session, scenario.id, event, current_app.config["MAX_EVENTS"])
    return {"number": number}, 201 if created else 200


@scenario_routes.post("/api/customer/messages")
@idempotent
def message_customer():
    session = get_session()
    scenario = scenario_from_request(session, required=True)
    text = transcript.clean_text(json_body())
    caller = _customer().speaking(customer_variant(scenario.customer_variant), store.booked_on(_world(), scenario))
    reply = transcript.say(session, scenario.id, store.told(_world(), scenario), text, caller)
    return {"reply": reply, "lines": transcript.row_count(session, scenario.id)}, 201


@scenario_routes.post("/api/customer/transfer")
@idempotent
def transfer_call():
    session = get_session()
    scenario = scenario_from_request(session, required=True)
    summary = transcript.clean_text(json_body(), "summary")
    reply = transcript.transfer(session, scenario.id, summary)
    return {"transferred": True, "reply": reply, "lines": transcript.row_count(session, scenario.id)}, 201


@scenario_routes.post("/api/customer/end")
@idempotent
def end_call():
    session = get_session()
    scenario = scenario_from_request(session, required=True)
    transcript.end(session, scenario.id)
    return {"ended": True, "lines": transcript.row_count(session, scenario.id)}, 201


@scenario_routes.get("/api/customer/messages")
def customer_messages():
    session = get_session()
    scenario = scenario_from_request(session, required=True)
    ended = transcript.ending(session, scenario.id)
    return {"messages": transcript.messages(session, scenario.id, store.told(_world(), scenario)),
            "customer": transcript.speaker(session, scenario.id, _customer().speaker),
            "open": ended is None, "ended": ended, "lines": transcript.row_count(session, scenario.id)}


def _customer():
    """The customer the server runs (scenarios/customer/llm_customer.customer_from_config)."""
    return current_app.extensions[CUSTOMER]
