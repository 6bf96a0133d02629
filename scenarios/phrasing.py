"""Words for a scenario's facts: the instruction and the customer conversation share these.

Task modules hold templates like "Find a {trip} flight from {origin} to {destination}"; the
facts filling them come from the details alone, so the text never says anything the details don't.
"""
from __future__ import annotations

import datetime as dt
import random

from crm_app.airports import offered_airports
from crm_app.services.dates import us_date

DATE_STYLES = ("iso", "us", "long")
PASSENGER_WORDS = {"title": "title", "firstname": "first name", "lastname": "last name",
                   "gender": "gender", "dob": "date of birth", "email": "email address"}


def spoken_date(iso: str, style: str) -> str:
    day = dt.date.fromisoformat(iso)
    if style == "us":
        return us_date(day)
    if style == "long":
        return f"{day:%B} {day.day}, {day.year}"
    return iso


def airport(code: str) -> str:
    city = next(row["city"] for row in offered_airports() if row["code"] == code)
    return f"{city} ({code})"


def facts(details: dict, style: str = "iso", flight_numbers: bool = True) -> dict:
    """Template fields for everything in `details`, with dates written in `style`; without
    `flight_numbers` the flights are named by their times alone (outward departure, return arrival)."""
    found = {"code": details.get("confirmation-code", "")}
    if "flight" in details:
        found.update(_flight_facts(details["flight"], style, flight_numbers))
    if "passenger" in details:
        found.update(_passenger_facts(details["passenger"], style))
    for said in ("wish", "claim", "wants", "newcomer", "opening"):  # what a caller says of its request
        if said in details:
            found[said] = details[said]
    if "payment-details" in details:
        card = details["payment-details"]
        found.update(card=card["card-number"], expiry=card["expiry"], cvv=card["security_code"],
                     card_name=card["name-on-card"])
    return found


def _flight_facts(flight: dict, style: str, numbers: bool) -> dict:
    depart = spoken_date(flight["departure"], style)
    out = (f"the {flight['outward-departure-time']} flight {flight['outward-flight-number']}" if numbers
           else f"the flight departing at {flight['outward-departure-time']}")
    found = {"origin": airport(flight["from"]), "destination": airport(flight["to"]), "depart": depart,
             "from_code": flight["from"], "to_code": flight["to"], "out_date": flight["departure"],
             "out_time": flight["outward-departure-time"]}
    if "return" not in flight:
        return {**found, "trip": "one-way", "dates": f"on {depart}", "flights": out}
    back = spoken_date(flight["return"], style)
    home = (f"the {flight['return-departure-time']} flight {flight['return-flight-number']}" if numbers
            else f"the flight arriving at {flight['return-arrival-time']}")
    return {**found, "trip": "return", "back": back, "dates": f"leaving on {depart} and returning on {back}",
            "flights": f"{out} out and {home} back", "back_date": flight["return"],
            "back_time": flight["return-arrival-time"]}


def _passenger_facts(person: dict, style: str) -> dict:
    shown = {key: spoken_date(value, style) if key == "dob" else value for key, value in person.items()}
    changes = [f"the {PASSENGER_WORDS[key]} to {shown[key]}" for key in PASSENGER_WORDS if key in shown]
    values = [f"{PASSENGER_WORDS[key]}: {shown[key]}" for key in PASSENGER_WORDS if key in shown]
    found = {"changes": join_words(changes), "new_values": ", ".join(values)}
    if len(shown) == len(PASSENGER_WORDS):
        found.update(shown)
        found.update(name=f"{shown['title']} {shown['firstname']} {shown['lastname']}",
                     about=f"{shown['gender'].lower()}, born {shown['dob']}, email {shown['email']}")
    return found


def join_words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def instruction(templates: tuple[str, ...], details: dict, rng: random.Random, flight_numbers: bool = True) -> str:
    """One of the task's instruction sentences, with ISO dates (what the page takes as typed)."""
    return _sentence(rng.choice(templates).format(**facts(details, "iso", flight_numbers)))


def conversation(variants: tuple[tuple[tuple[str, str], ...], ...], details: dict, rng: random.Random,
                 flight_numbers: bool = True) -> list[dict]:
    """One of the task's CUS/REP dialogues, dates written in a style the seed picks."""
    found = facts(details, rng.choice(DATE_STYLES), flight_numbers)
    return [{"role": role, "text": _sentence(text.format(**found))} for role, text in rng.choice(variants)]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
