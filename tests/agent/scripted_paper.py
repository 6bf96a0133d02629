"""Scripted model replies for the paper protocol's prompts (agent/policies/prompts/paper/): a small rule-based
'model' that reads the paper observation in the request (labels are text lines there, a control is
named by its own aria-label) and the paper instruction, and answers as the policy asked would."""
from __future__ import annotations

import re

from tests.agent.scripted_model import element, form_field, page, reply, system_text, us_date, user_text

FIND_FLIGHT = re.compile(r"from (?P<origin>[A-Z]{3}) to (?P<to>[A-Z]{3}): out on (?P<out>\d{4}-\d{2}-\d{2}), .*"
                         r"back on (?P<back>\d{4}-\d{2}-\d{2}),")


def role(request: dict) -> str:
    """PLANNER, FLAT, a HeaP low-level policy's name, or STEP:<policy>, from the system prompt."""
    system = system_text(request)
    if system.startswith("You plan the work"):
        return "PLANNER"
    low_level = re.match(r"You are the (\w+) policy", system)
    if low_level:
        return low_level.group(1)
    step = re.match(r"You are one policy, (\w+),", system)
    return f"STEP:{step.group(1)}" if step else "FLAT"


def task(request: dict) -> str:
    return user_text(request).split("TASK:\n", 1)[1].split("\n", 1)[0]


def job(request: dict) -> str:
    return re.search(r"^YOUR CURRENT JOB: (.*)$", user_text(request), re.MULTILINE).group(1)


def search_fields(request: dict) -> list[tuple[str, str, str]]:
    """(kind of step, field label, value) of a flight search, from the paper instruction."""
    found = FIND_FLIGHT.search(task(request))
    return [("FILL_TEXT", "From", found["origin"]), ("FILL_TEXT", "To", found["to"]),
            ("CHOOSE_DATE", "Departure date", us_date(found["out"])),
            ("CHOOSE_DATE", "Return date", us_date(found["back"]))]


def heap_find_flight(request: dict) -> str:
    """The planner plans the whole search; FILL_TEXT and CHOOSE_DATE type until the field shows
    the value; PAGE_ACTION grounds `CLICK <label>` on the button's id."""
    name = role(request)
    if name == "PLANNER":
        steps = [f'{kind} {label} "{value}"' for kind, label, value in search_fields(request)]
        return "REASON: Fill the search form and search.\nPLAN:\n" + "\n".join(steps + ["CLICK Search flights"])
    elements = page(request)
    if name == "PAGE_ACTION":
        label = job(request).removeprefix("CLICK ").strip()
        return reply("The button with that name.", f'CLICK {element(elements, "button", label)["id"]}')
    label, value = re.fullmatch(r'\w+ (.+?) "(.*)"', job(request)).groups()
    return type_until_shown(elements, label, value, "DONE")


def type_until_shown(elements: list[dict], label: str, value: str, finished: str) -> str:
    field = form_field(elements, label)
    if field.get("value") == value:
        return reply("The field shows it.", finished)
    return reply("Type it.", f'TYPE {field["id"]} "{value}"')


def step_find_flight(request: dict) -> str:
    """The root calls FILL_TEXT or CHOOSE_DATE for each empty search field, then clicks Search
    flights itself; the called policies type until the field shows their argument."""
    name, elements = role(request), page(request)
    if name == "STEP:CRM":
        for kind, label, value in search_fields(request):
            if not form_field(elements, label).get("value"):
                return reply("Next field.", f"CALL {kind} [{label}: {value}]")
        return reply("Search.", f'CLICK {element(elements, "button", "Search flights")["id"]}')
    label, value = re.fullmatch(r"\w+ \[(.+?): (.*)\]", job(request)).groups()
    return type_until_shown(elements, label, value, "RETURN [done]")


def every_method_stops(request: dict) -> str:
    """One reply each paper policy reads as the end of the task: flat and the SteP root read
    ACTION: STOP, the HeaP planner its PLAN."""
    return "REASON: Nothing to do.\nACTION: STOP\nPLAN:\nSTOP"
