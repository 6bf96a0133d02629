"""Gold steps: what a person does on the page, named by semantic target (see targets.py).

A step is a plain dict so it can be stored, returned as JSON and replayed:
`{"action": "fill", "target": "search-from", "value": "JFK", "label": "From"}`; clicks have no value.
"""
from __future__ import annotations

from .targets import label_of, normalize

# The passenger form's fields in the order the page shows them, each with the booking field it sets.
# The keys are also the `passenger` keys of a scenario's details and the suffixes of the form targets.
PASSENGER_KEYS = {"title": "title", "firstname": "first_name", "lastname": "last_name",
                  "email": "email", "gender": "gender", "dob": "date_of_birth"}


def fill(target: str, value) -> dict:
    return {"action": "fill", "target": target, "value": normalize(target, value), "label": label_of(target, value)}


def click(target: str) -> dict:
    return {"action": "click", "target": target, "label": label_of(target)}


CALL_STEPS = ("say", "transfer")  # gold steps of the call with the customer, not done on the page


def say(text: str, asks: tuple[str, ...] = (), tells: tuple[str, ...] = ()) -> dict:
    """A line to the customer on the line (the hard suite): the facts it asks for (kinds of
    scenarios/customer/facts.py) and the values it tells (amounts, codes, a rule's words)."""
    return {"action": "say", "target": "customer", "text": text, "asks": list(asks), "tells": list(tells),
            "label": "Say"}


def transfer(summary: str) -> dict:
    """The call handed to a supervisor, with what they need to know (the hard suite): it ends the call."""
    return {"action": "transfer", "target": "supervisor", "text": summary, "asks": [], "tells": [], "label": "Transfer"}


def flight_search(flight: dict) -> list[dict]:
    """Home screen: trip type (one-way only, return is the default), route, dates, Search flights."""
    one_way = "return" not in flight
    steps = [fill("trip-type", "oneway")] if one_way else []
    steps += [fill("search-from", flight["from"]), fill("search-to", flight["to"]),
              fill("search-depart", flight["departure"])]
    if not one_way:
        steps.append(fill("search-return", flight["return"]))
    return steps + [click("search-submit")]


def flight_choice(flight: dict, prefix: str = "") -> list[dict]:
    """Pick the outward (and return) flight rows by number; `prefix` is "change-" on the modify screen."""
    steps = [fill(f"{prefix}outward-flight", flight["outward-flight-number"])]
    if "return" in flight:
        steps.append(fill(f"{prefix}return-flight", flight["return-flight-number"]))
    return steps


def passenger_fills(prefix: str, person: dict) -> list[dict]:
    """Fill the passenger fields given in `person` (details keys), in form order; `prefix` names the form."""
    return [fill(f"{prefix}{key}", person[key]) for key in PASSENGER_KEYS if key in person]


def find_booking(code: str) -> list[dict]:
    return [click("nav-find-booking"), fill("find-code", code), click("find-submit")]


def describe(action: dict) -> str:
    """A step or event as one readable line: 'fill search-from "JFK"', 'click search-submit'."""
    if action.get("action") == "fill":
        return f'fill {action.get("target")} "{action.get("value") or ""}"'
    if action.get("action") in CALL_STEPS:
        return f'{action["action"]} "{action.get("text") or ""}"'
    return f'{action.get("action")} {action.get("target")}'
