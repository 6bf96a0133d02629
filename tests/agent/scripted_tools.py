"""A scripted tool-calling 'model' for the toolcall tests: it reads the task from the request's user
message and the calls made so far from its assistant and tool messages (flight ids, the booked code,
the route of a booking are taken from the tools' JSON answers, never assumed), and answers with the
next tool calls in the shape tests/fake_openai.py sends, or with a final answer.

Each task is worked as a customer-service agent would: find flight searches (after one search the
API refuses, to show that an error comes back as a tool result); book searches, then books the
flights named in the task; the booking tasks look the booking up first; update passenger looks up
and changes in one reply of two parallel tool calls."""
from __future__ import annotations

import json
import re

from tests.agent.scripted_model import PASSENGER_LABELS, passenger_changes, task_text, trip

API_FIELDS = {"Title": "title", "First name": "first_name", "Last name": "last_name", "Email address": "email",
              "Gender": "gender", "Date of birth": "date_of_birth"}


def call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def calls(*made: dict, content: str | None = None) -> dict:
    return {"tool_calls": list(made), "content": content}


def made_calls(request: dict) -> list[tuple[str, dict, str]]:
    """(tool, arguments, answer text) of every call in the conversation so far, in order."""
    answers = {m["tool_call_id"]: m["content"] for m in request["messages"] if m["role"] == "tool"}
    return [(c["function"]["name"], json.loads(c["function"]["arguments"]), answers.get(c["id"], ""))
            for m in request["messages"] if m["role"] == "assistant" for c in m.get("tool_calls") or []]


def answered(request: dict, tool: str) -> dict | None:
    """The JSON answer of the last successful call of `tool`, or None."""
    for name, _arguments, text in reversed(made_calls(request)):
        if name == tool and not text.startswith("Error"):
            return json.loads(text)
    return None


def kind(request: dict) -> str:
    task = task_text(request)
    for words, name in (("Book a", "book"), ("ancel", "cancel"), ("assenger details", "update"),
                        ("On booking", "update"), ("Move booking", "modify"), ("Change the flights", "modify"),
                        ("Find the booking", "find_booking"), ("Look up booking", "find_booking")):
        if words in task:
            return name
    return "find_flight"


def search_call(request: dict, origin: str, destination: str) -> dict:
    dates = trip(request)["dates"]  # as the page takes them, MM/DD/YYYY; the API takes them too
    arguments = {"from": origin, "to": destination, "date": dates[0]}
    if len(dates) > 1:
        arguments["return"] = dates[1]
    return call("search_flights", **arguments)


def flight_ids(request: dict, found: dict) -> dict:
    """The ids of the flights the task names by number, from a search answer."""
    numbers = trip(request)["flights"]
    ids = {"outward_flight_id": _flight_id(found["flights"], numbers[0])}
    if len(numbers) > 1:
        ids["return_flight_id"] = _flight_id(found["return_flights"], numbers[1])
    return ids


def _flight_id(flights: list[dict], number: str) -> int:
    return next(flight["id"] for flight in flights if flight["number"] == number)


def passenger(request: dict) -> dict:
    found = re.search(r"passenger is (\w+) (\w+) (\w+) \((\w+), born (\d{4}-\d{2}-\d{2}), email (\S+?)\)",
                      task_text(request))
    title, first, last, gender, born, email = found.groups()
    return {"title": title, "first_name": first, "last_name": last, "gender": gender.capitalize(),
            "date_of_birth": born, "email": email}


def payment(request: dict) -> dict:
    found = re.search(r"card (\d+), expiry (\S+), security code (\d+), name on card ([^.]+)\.", task_text(request))
    number, expiry, code, name = found.groups()
    return {"card_number": number, "expiry": expiry, "security_code": code, "name_on_card": name}


def find_flight(request: dict) -> dict | str:
    wanted = trip(request)
    made = made_calls(request)
    if not made:
        return calls(call("search_flights", **{"from": wanted["from"], "to": wanted["to"], "date": "the 7th"}),
                     content="Searching the customer's route.")
    if made[-1][2].startswith("Error"):
        return calls(search_call(request, wanted["from"], wanted["to"]), content="The date was wrong; again.")
    return (f"Here are the flights from {wanted['from']} to {wanted['to']}.")


def book(request: dict) -> dict | str:
    wanted = trip(request)
    found, booked = answered(request, "search_flights"), answered(request, "book_flight")
    if booked:
        return (f"Booked: confirmation code {booked['booking']['code']}.")
    if not found:
        return calls(search_call(request, wanted["from"], wanted["to"]))
    return calls(call("book_flight", **flight_ids(request, found), passenger=passenger(request), payment=payment(request)))


def find_booking(request: dict) -> dict | str:
    found = answered(request, "get_booking")
    if found:
        return (f"Booking {found['booking']['code']} is {found['booking']['status']}.")
    return calls(call("get_booking", code=trip(request)["code"]))


def cancel(request: dict) -> dict | str:
    code = trip(request)["code"]
    if answered(request, "cancel_booking"):
        return (f"Booking {code} is cancelled.")
    if answered(request, "get_booking"):
        return calls(call("cancel_booking", code=code, confirmation_code=code))
    return calls(call("get_booking", code=code))


def update(request: dict) -> dict | str:
    code = trip(request)["code"]
    if answered(request, "update_passenger"):
        return (f"The passenger details of booking {code} are changed.")
    changes = {API_FIELDS[label]: value for label, value in passenger_changes(request).items()}
    return calls(call("get_booking", code=code), call("update_passenger", code=code, **changes),
                 content="Looking the booking up and changing it.")


def modify(request: dict) -> dict | str:
    code = trip(request)["code"]
    booking, found = answered(request, "get_booking"), answered(request, "search_flights")
    if answered(request, "change_flights"):
        return (f"Booking {code} is moved to the new flights.")
    if booking is None:
        return calls(call("get_booking", code=code))
    if found is None:
        outward = next(f for f in booking["booking"]["flights"] if f["direction"] == "outward")
        return calls(search_call(request, outward["from"], outward["to"]))
    return calls(call("change_flights", code=code, **flight_ids(request, found)))


RULES = {"find_flight": find_flight, "book": book, "find_booking": find_booking, "cancel": cancel,
         "update": update, "modify": modify}


def rule(request: dict) -> dict | str:
    """The next reply to a toolcall request."""
    assert {t["function"]["name"] for t in request["tools"]} >= {"search_flights", "book_flight", "change_flights"}
    return RULES[kind(request)](request)


assert set(API_FIELDS) == set(PASSENGER_LABELS.values())
