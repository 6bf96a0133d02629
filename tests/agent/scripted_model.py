"""Scripted model replies for the LLM policy tests: a small rule-based 'model' that reads the page
in the request (ids are parsed from the observation text, never assumed) and answers in the
REASON/ACTION format, so the scripts stay right whatever ids the page hands out."""
from __future__ import annotations

import re

from agent.observation import parse_observation


def user_text(request: dict) -> str:
    return next(m["content"] for m in reversed(request["messages"]) if m["role"] == "user")


def system_text(request: dict) -> str:
    return next(m["content"] for m in request["messages"] if m["role"] == "system")


def page(request: dict) -> list[dict]:
    return parse_observation(user_text(request).split("CURRENT PAGE:", 1)[-1])


def task_text(request: dict) -> str:
    return user_text(request).split("CONVERSATION", 1)[0]


def trip(request: dict) -> dict:
    """From, to and dates read from the task text of the request."""
    task = task_text(request)
    codes = re.findall(r"\(([A-Z]{3})\)", task)
    dates = [f"{m}/{d}/{y}" for y, m, d in re.findall(r"(\d{4})-(\d{2})-(\d{2})", task)]
    code = re.search(r"\b([A-Z0-9]{6})\b", task)
    return {"from": codes[0] if codes else "", "to": codes[1] if len(codes) > 1 else "", "dates": dates,
            "code": code.group(1) if code else "", "flights": re.findall(r"\bCR\d+\b", task)}


def element(elements: list[dict], kind: str, name: str) -> dict | None:
    return next((e for e in elements if e["kind"] == kind and e["name"] == name), None)


def form_field(elements: list[dict], label: str) -> dict | None:
    """The text field or select with this label."""
    return next((e for e in elements if e["kind"] in ("input", "select") and e["name"] == label), None)


def reply(reason: str, action: str) -> str:
    return f"REASON: {reason}\nACTION: {action}"


def search_action(request: dict) -> str | None:
    """The next step of a flight search on the page in the request; None when it is done."""
    elements, wanted = page(request), trip(request)
    if element(elements, "text", "Search results"):
        return None
    fields = [("From", wanted["from"]), ("To", wanted["to"]), ("Departure date", wanted["dates"][0]),
              ("Return date", wanted["dates"][1] if len(wanted["dates"]) > 1 else "")]
    for label, value in fields:
        field = element(elements, "input", label)
        if value and field and not field.get("value"):
            return f'TYPE {field["id"]} "{value}"'
    return f'CLICK {element(elements, "button", "Search flights")["id"]}'


def flat_search_flight(request: dict) -> str:
    action = search_action(request)
    return reply("The search is done.", "STOP [done]") if action is None else reply("Next field.", action)


# --- step: one rule set per policy of the library ---------------------------------------------

def policy_name(request: dict) -> str:
    return re.search(r"You are one policy, (\w+),", system_text(request)).group(1)


def history(request: dict) -> str:
    return user_text(request).split("YOUR PREVIOUS ACTIONS", 1)[1].split("CURRENT PAGE:", 1)[0]


def job(request: dict) -> str:
    found = re.search(r"YOUR CURRENT JOB: \w+ \[(.*)\]", user_text(request))
    return found.group(1) if found else ""


def named(elements: list[dict], kind: str, text: str) -> dict | None:
    return next((e for e in elements if e["kind"] == kind and text in e["name"]), None)


def step_crm_cancel(request: dict) -> str:
    done, code = history(request), trip(request)["code"]
    if "CANCEL_BOOKING returned" in done:
        return reply("The booking is cancelled.", "RETURN [done]")
    if "FIND_BOOKING returned" in done:
        return reply("The booking is open.", f"CALL CANCEL_BOOKING [{code}]")
    return reply("First open the booking.", f"CALL FIND_BOOKING [{code}]")


def code_form(request: dict, done: str, result: str, opener: tuple[str, str], submit: str) -> str:
    """Open the form asking for the confirmation code (the job's argument), type it and submit;
    RETURN `result` once the page shows `done` (where `{code}` stands for the code)."""
    elements, code = page(request), job(request)
    if named(elements, "text", done.format(code=code)):
        return reply("Done.", f"RETURN [{result}]")
    field = element(elements, "input", "Confirmation code")
    if field is None:
        return reply("Open the form.", f"CLICK {element(elements, *opener)['id']}")
    if not field.get("value"):
        return reply("Type the code.", f'TYPE {field["id"]} "{code}"')
    return reply("Submit.", f'CLICK {element(elements, "button", submit)["id"]}')


def step_find_booking(request: dict) -> str:
    return code_form(request, "Booking {code}", "found", ("link", "Find booking"), "Search")


def step_cancel_booking(request: dict) -> str:
    return code_form(request, "Status Cancelled", "cancelled", ("button", "Cancel booking"), "Confirm cancellation")


def step_fill_text(request: dict) -> str:
    label, _, text = job(request).partition(": ")
    field = form_field(page(request), label)
    if field.get("value", "").lower() == text.lower():
        return reply("Filled.", "RETURN [filled]")
    return reply("Type it.", f'TYPE {field["id"]} "{text}"')


def passenger_values(request: dict) -> dict:
    person = re.search(r"passenger is (\w+) (\w+) (\w+) \((\w+), born (\d{4})-(\d{2})-(\d{2}), email (\S+?)\)", task_text(request))
    title, first, last, gender, year, month, day, email = person.groups()
    return {"Title": title, "First name": first, "Last name": last, "Email address": email,
            "Gender": gender.capitalize(), "Date of birth": f"{month}/{day}/{year}"}


def card_values(request: dict) -> dict:
    card = re.search(r"card (\d+), expiry (\S+), security code (\d+), name on card ([^.]+)\.", task_text(request))
    number, expiry, code, name = card.groups()
    return {"Card number": number, "Expiry": expiry, "Security code": code, "Name on card": name}


def fill_form(request: dict, values: dict, submit: str, via_fill_text: bool) -> str | None:
    """The next action filling `values` on the page, then clicking `submit`; None when submitted."""
    elements = page(request)
    for label, value in values.items():
        field = form_field(elements, label)
        if field is None:
            return None
        if field.get("value", "").lower() != value.lower():
            if via_fill_text:
                return f"CALL FILL_TEXT [{label}: {value}]"
            return f'TYPE {field["id"]} "{value}"'
    return f'CLICK {element(elements, "button", submit)["id"]}'


def step_book(request: dict) -> str:
    name, elements, wanted = policy_name(request), page(request), trip(request)
    if name == "CRM":
        done = history(request)
        if named(elements, "text", "Booking confirmed"):
            return reply("Booked.", "RETURN [done]")
        if "PASSENGER_DETAILS returned" in done:
            return reply("Pay.", "CALL PAYMENT [the card in the task]")
        if element(elements, "text", "Passenger details"):
            return reply("Passenger form.", "CALL PASSENGER_DETAILS [as in the task]")
        if "SELECT_FLIGHT returned" in done:
            return reply("Checkout.", f'CLICK {element(elements, "button", "Checkout")["id"]}')
        if "SEARCH_FLIGHT returned" in done:
            return reply("Pick the flights.", f"CALL SELECT_FLIGHT [{' '.join(wanted['flights'])}]")
        return reply("Search first.", f"CALL SEARCH_FLIGHT [{wanted['from']} to {wanted['to']}]")
    if name == "SEARCH_FLIGHT":
        action = search_action(request)
        return reply("Search.", "RETURN [results shown]" if action is None else action)
    if name == "SELECT_FLIGHT":
        todo = [named(elements, "radio", number) for number in job(request).split()]
        radio = next((r for r in todo if not r.get("checked")), None)
        return reply("Select.", "RETURN [selected]" if radio is None else f'CLICK {radio["id"]}')
    if name == "FILL_TEXT":
        return step_fill_text(request)
    values, submit = ((passenger_values(request), "Save") if name == "PASSENGER_DETAILS"
                      else (card_values(request), "Book flight"))
    action = fill_form(request, values, submit, via_fill_text=name == "PASSENGER_DETAILS")
    return reply("Form.", "RETURN [submitted]" if action is None else action)


def step_cancel(request: dict) -> str:
    rules = {"CRM": step_crm_cancel, "FIND_BOOKING": step_find_booking, "CANCEL_BOOKING": step_cancel_booking}
    return rules[policy_name(request)](request)


# --- heap: the planner and its low-level policies -----------------------------------------------

def heap_search_flight(request: dict) -> str:
    system = system_text(request)
    if system.startswith("You plan"):
        if "(none yet)" not in history(request):
            return "REASON: The search has run.\nPLAN:\nSTOP [done]"
        wanted = trip(request)
        plan = [f'FILL_TEXT From "{wanted["from"]}"', f'FILL_TEXT To "{wanted["to"]}"',
                f'CHOOSE_DATE Departure date "{wanted["dates"][0]}"']
        plan += [f'CHOOSE_DATE Return date "{wanted["dates"][1]}"'] if len(wanted["dates"]) > 1 else []
        return "REASON: Fill the form and search.\nPLAN:\n" + "\n".join(plan + ["CLICK Search flights"])
    label, text = re.fullmatch(r'(?:FILL_TEXT|CHOOSE_DATE) (.+) "(.*)"', job_line(request)).groups()
    field = element(page(request), "input", label)
    if field.get("value"):
        return reply("The field is filled.", "DONE")
    return reply("Type it.", f'TYPE {field["id"]} "{text}"')


def job_line(request: dict) -> str:
    return re.search(r"YOUR CURRENT JOB: (.*)", user_text(request)).group(1).strip()
