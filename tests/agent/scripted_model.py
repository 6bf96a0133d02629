"""Scripted model replies for the LLM policy tests: a small rule-based 'model' that reads the page
in the request (ids are parsed from the observation text, never assumed) and answers in the
REASON/ACTION format, so the scripts stay right whatever ids the page hands out."""
from __future__ import annotations

import datetime as dt
import re

from agent.env.observation import parse_observation
from crm_app.services.dates import us_date as crm_date
from tests.fake_openai import content_parts


def user_text(request: dict) -> str:
    """The text of the last user message (its text parts, when it also carries images)."""
    message = next(m for m in reversed(request["messages"]) if m["role"] == "user")
    return "\n".join(part["text"] for part in content_parts(message) if part.get("type") == "text")


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
    travel = re.sub(r"born \d{4}-\d{2}-\d{2}", "", task)  # flight dates only, not the passenger's birthday
    days = [us_date(iso) for iso in re.findall(r"\d{4}-\d{2}-\d{2}", travel)]
    code = re.search(r"\b([A-Z0-9]{6})\b", task)
    return {"from": codes[0] if codes else "", "to": codes[1] if len(codes) > 1 else "", "dates": days,
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
    radio = element(elements, "radio", "One way")
    if one_way(request) and radio and not radio.get("checked"):
        return f'CLICK {radio["id"]}'
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


def step_fill_text(request: dict, result: str = "filled") -> str:
    """FILL_TEXT (and CHOOSE_DATE, with result "set"): TYPE the job's "<label>: <text>" into the
    field with that label; RETURN once the field shows it."""
    label, _, text = job(request).partition(": ")
    field = form_field(page(request), label)
    if field.get("value", "").lower() == text.lower():
        return reply("Filled.", f"RETURN [{result}]")
    return reply("Type it.", f'TYPE {field["id"]} "{text}"')


def passenger_values(request: dict) -> dict:
    person = re.search(r"passenger is (\w+) (\w+) (\w+) \((\w+), born (\d{4}-\d{2}-\d{2}), email (\S+?)\)", task_text(request))
    title, first, last, gender, born, email = person.groups()
    return {"Title": title, "First name": first, "Last name": last, "Email address": email,
            "Gender": gender.capitalize(), "Date of birth": us_date(born)}


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
        return step_select_flights(request)
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
        return plan_reply("Fill the form and search.", heap_search_plan(request))
    return heap_low_level(request)


def job_line(request: dict) -> str:
    return re.search(r"YOUR CURRENT JOB: (.*)", user_text(request)).group(1).strip()


# --- shared readers for the task rules below ------------------------------------------------------

PASSENGER_LABELS = {"title": "Title", "first name": "First name", "last name": "Last name", "gender": "Gender",
                    "date of birth": "Date of birth", "email address": "Email address"}


def one_way(request: dict) -> bool:
    return "one-way" in task_text(request)


def us_date(iso: str) -> str:
    """2026-09-14 as the CRM's date fields take it: 09/14/2026."""
    return crm_date(dt.date.fromisoformat(iso))


def text_after(elements: list[dict], prefix: str) -> str | None:
    """The rest of the first text element starting with `prefix`, or None."""
    return next((e["name"][len(prefix):].strip() for e in elements
                 if e["kind"] == "text" and e["name"].startswith(prefix)), None)


def flight_radio(elements: list[dict], number: str) -> dict | None:
    """The results radio of this flight number (CR524 is not CR5240)."""
    pattern = re.compile(rf"\b{re.escape(number)}\b")
    return next((e for e in elements if e["kind"] == "radio" and pattern.search(e["name"])), None)


def shows(field: dict, text: str) -> bool:
    """The field holds the text, or its completed form ("Denver, CO (DEN)" for DEN)."""
    value = field.get("value", "")
    return value.lower() == text.lower() or value.endswith(f"({text})")


def passenger_changes(request: dict) -> dict:
    """Field label -> new value, from "change the title to Miss, the last name to Hull and the email
    address to x@example.org" (or "set ...") in the task; dates as MM/DD/YYYY."""
    body = re.search(r"\b(?:change|set) (the .+)", task_text(request)).group(1).strip().removesuffix(".")
    changes = {}
    for part in re.split(r",\s+(?=the )|\s+and\s+(?=the )", body):
        what, value = re.fullmatch(rf"the ({'|'.join(PASSENGER_LABELS)}) to (.+)", part).groups()
        changes[PASSENGER_LABELS[what]] = us_date(value) if what == "date of birth" else value
    return changes


def job_values(request: dict) -> dict:
    """The job's argument, "Label: value; Label: value", as {label: value}."""
    return dict(item.split(": ", 1) for item in job(request).split("; ") if ": " in item)


def select_action(elements: list[dict], numbers: list[str]) -> str | None:
    """CLICK the first requested flight whose radio is not checked; None when all are."""
    radios = [flight_radio(elements, number) for number in numbers]
    radio = next((r for r in radios if not r.get("checked")), None)
    return None if radio is None else f'CLICK {radio["id"]}'


# --- flat: find a booking and answer with what the page shows ---------------------------------------

def flat_find_booking(request: dict) -> str:
    elements, code = page(request), trip(request)["code"]
    if element(elements, "text", f"Booking {code}"):
        answer = f"{code}: {text_after(elements, 'Status ')}, {text_after(elements, 'Name: ')}"
        return reply("The booking is open; tell the customer what it holds.", f"STOP [{answer}]")
    field = element(elements, "input", "Confirmation code")
    if field is None:
        return reply("Open the booking search.", f'CLICK {element(elements, "link", "Find booking")["id"]}')
    if field.get("value") != code:
        return reply("Type the code.", f'TYPE {field["id"]} "{code}"')
    return reply("Search.", f'CLICK {element(elements, "button", "Search")["id"]}')


# --- step: change passenger details, change flights ------------------------------------------------

def step_crm_update_passenger(request: dict) -> str:
    elements, done, code = page(request), history(request), trip(request)["code"]
    if "PASSENGER_DETAILS returned" in done:
        return reply("The details are saved.", "RETURN [done]")
    if "FIND_BOOKING returned" not in done:
        return reply("First open the booking.", f"CALL FIND_BOOKING [{code}]")
    if element(elements, "text", f"Modify booking {code}"):
        changes = "; ".join(f"{label}: {value}" for label, value in passenger_changes(request).items())
        return reply("The form is open.", f"CALL PASSENGER_DETAILS [{changes}]")
    return reply("Open the form.", f'CLICK {element(elements, "button", "Modify booking")["id"]}')


def step_passenger_changes(request: dict) -> str:
    """PASSENGER_DETAILS with the values in its argument: selects typed here, dates through
    CHOOSE_DATE, text through FILL_TEXT; then Save."""
    elements = page(request)
    if element(elements, "text", "Passenger details saved"):
        return reply("Saved.", "RETURN [saved]")
    for label, value in job_values(request).items():
        field = form_field(elements, label)
        if shows(field, value):
            continue
        if field["kind"] == "select":
            return reply("A select.", f'TYPE {field["id"]} "{value}"')
        helper = "CHOOSE_DATE" if label == "Date of birth" else "FILL_TEXT"
        return reply("Delegate.", f"CALL {helper} [{label}: {value}]")
    return reply("All set.", f'CLICK {element(elements, "button", "Save")["id"]}')


def step_choose_date(request: dict) -> str:
    return step_fill_text(request, result="set")


def step_update_passenger(request: dict) -> str:
    rules = {"CRM": step_crm_update_passenger, "FIND_BOOKING": step_find_booking,
             "PASSENGER_DETAILS": step_passenger_changes, "FILL_TEXT": step_fill_text, "CHOOSE_DATE": step_choose_date}
    return rules[policy_name(request)](request)


def step_crm_modify_flight(request: dict) -> str:
    elements, done, wanted = page(request), history(request), trip(request)
    if element(elements, "text", "Flights changed"):
        return reply("The flights are changed.", "RETURN [done]")
    if "FIND_BOOKING returned" not in done:
        return reply("First open the booking.", f"CALL FIND_BOOKING [{wanted['code']}]")
    if "SELECT_FLIGHT returned" in done:
        return reply("Save.", f'CLICK {element(elements, "button", "Save flights")["id"]}')
    if "SEARCH_FLIGHT returned" in done:
        return reply("Pick the flights.", f"CALL SELECT_FLIGHT [{' '.join(wanted['flights'])}]")
    if form_field(elements, "Departure date"):
        dates = dict(zip(("Departure date", "Return date"), wanted["dates"]))
        search = "; ".join(["same route", *(f"{label}: {date}" for label, date in dates.items())])
        return reply("Search the new dates.", f"CALL SEARCH_FLIGHT [{search}]")
    button = element(elements, "button", "Change flights") or element(elements, "button", "Modify booking")
    return reply("Open the form.", f'CLICK {button["id"]}')


def step_search_new_dates(request: dict) -> str:
    """SEARCH_FLIGHT on the change-flights form: the route is there; set the dates of the argument."""
    elements = page(request)
    if element(elements, "text", "Select your departing flight"):
        return reply("Results.", "RETURN [results shown]")
    for label, date in job_values(request).items():
        if form_field(elements, label).get("value") != date:
            return reply("Set the date.", f"CALL CHOOSE_DATE [{label}: {date}]")
    return reply("Search.", f'CLICK {element(elements, "button", "Search flights")["id"]}')


def step_select_flights(request: dict) -> str:
    action = select_action(page(request), job(request).split())
    return reply("Select.", "RETURN [selected]" if action is None else action)


def step_modify_flight(request: dict) -> str:
    rules = {"CRM": step_crm_modify_flight, "FIND_BOOKING": step_find_booking, "SEARCH_FLIGHT": step_search_new_dates,
             "CHOOSE_DATE": step_choose_date, "SELECT_FLIGHT": step_select_flights}
    return rules[policy_name(request)](request)


# --- heap: book a flight, planning page by page -----------------------------------------------------

def plan_reply(reason: str, steps: list[str]) -> str:
    return f"REASON: {reason}\nPLAN:\n" + "\n".join(steps)


def heap_search_plan(request: dict) -> list[str]:
    wanted = trip(request)
    steps = ["CLICK One way"] if one_way(request) else []
    steps += [f'FILL_TEXT From "{wanted["from"]}"', f'FILL_TEXT To "{wanted["to"]}"']
    dates = zip(("Departure date", "Return date"), wanted["dates"])
    steps += [f'CHOOSE_DATE {label} "{date}"' for label, date in dates]
    return steps + ["CLICK Search flights"]


def heap_book_planner(request: dict) -> str:
    """Plans from the page shown: search form, results, passenger details, payment, confirmation."""
    elements, wanted = page(request), trip(request)
    code = text_after(elements, "Confirmation code ")
    if element(elements, "text", "Booking confirmed") and code:
        return plan_reply("The booking is made; answer with its code.", [f"STOP [{code}]"])
    if form_field(elements, "Card number"):
        return plan_reply("Payment.", [f'FILL_TEXT {label} "{value}"' for label, value in card_values(request).items()]
                          + ["CLICK Book flight"])
    if form_field(elements, "First name"):
        steps = [f'{"CHOOSE_DATE" if label == "Date of birth" else "FILL_TEXT"} {label} "{value}"'
                 for label, value in passenger_values(request).items()]
        return plan_reply("Passenger details.", steps + ["CLICK Save"])
    if element(elements, "text", "Search results"):
        return plan_reply("Pick the flights.", [f'SELECT_FLIGHT "{n}"' for n in wanted["flights"]] + ["CLICK Checkout"])
    return plan_reply("Search first.", heap_search_plan(request))


def heap_low_level(request: dict) -> str:
    """FILL_TEXT / CHOOSE_DATE <label> "<text>" and SELECT_FLIGHT "<number>": one action, then DONE."""
    elements = page(request)
    word, rest = job_line(request).split(" ", 1)
    if word == "SELECT_FLIGHT":
        action = select_action(elements, [rest.strip('"')])
        return reply("Selected." if action is None else "Click its radio.", action or "DONE")
    label, text = re.fullmatch(r'(.+) "(.*)"', rest).groups()
    field = form_field(elements, label)
    if shows(field, text):
        return reply("The field shows it.", "DONE")
    return reply("Type it.", f'TYPE {field["id"]} "{text}"')


def heap_book(request: dict) -> str:
    return heap_book_planner(request) if system_text(request).startswith("You plan") else heap_low_level(request)


# --- synapse: the state abstraction and the act prompt --------------------------------------------

CHROME = re.compile(r"^<text id=\d+>(AirlineCRM|Today: .*)</text>$|^<button id=\d+>Open calendar")


def synapse_abstraction(request: dict) -> str:
    """A state of the page in the request: a first line, then its element lines without the
    header texts and the calendar buttons."""
    page_lines = user_text(request).split("PAGE:\n", 1)[1].rsplit("\n\nSTATE:", 1)[0].splitlines()
    kept = [line for line in page_lines if not CHROME.match(line)]
    return f"A page of {len(page_lines)} elements, {len(kept)} of them kept.\n" + "\n".join(kept)


def task_line(request: dict) -> dict:
    """The request's TASK line (synapse: the current trajectory's), as a request the task readers
    above understand."""
    task = re.search(r"^TASK: (.*)$", user_text(request), re.MULTILINE).group(1)
    return {"messages": [{"role": "user", "content": task}]}


def synapse_state(request: dict) -> list[dict]:
    """The elements of the last STATE of the current trajectory."""
    return parse_observation(user_text(request).rsplit("STATE:\n", 1)[1].split("\nACTIONS:", 1)[0])


def actions_reply(actions: list[str]) -> str:
    return "\n".join(actions)


def synapse_book(request: dict) -> str:
    """Abstraction requests get synapse_abstraction; act requests answer every action of a page at
    once: the search form, the two flights and Checkout, the passenger form, the payment form."""
    if model_role(request) == "ABSTRACTION":
        return synapse_abstraction(request)
    elements, task = synapse_state(request), task_line(request)
    code = text_after(elements, "Confirmation code ")
    if code:
        return actions_reply([f"STOP [{code}]"])
    if form_field(elements, "Card number"):
        return actions_reply(form_actions(elements, card_values(task), "Book flight"))
    if form_field(elements, "First name"):
        return actions_reply(form_actions(elements, passenger_values(task), "Save"))
    if element(elements, "text", "Search results") or flight_radio(elements, trip(task)["flights"][0]):
        radios = [f'CLICK {flight_radio(elements, n)["id"]}' for n in trip(task)["flights"]]
        return actions_reply(radios + [f'CLICK {element(elements, "button", "Checkout")["id"]}'])
    return actions_reply(search_actions(elements, task))


def form_actions(elements: list[dict], values: dict, submit: str) -> list[str]:
    typed = [f'TYPE {form_field(elements, label)["id"]} "{value}"' for label, value in values.items()]
    return typed + [f'CLICK {element(elements, "button", submit)["id"]}']


def search_actions(elements: list[dict], task: dict) -> list[str]:
    wanted = trip(task)
    actions = [f'CLICK {element(elements, "radio", "One way")["id"]}'] if one_way(task) else []
    labels = ("From", "To", "Departure date", "Return date")
    values = (wanted["from"], wanted["to"], *wanted["dates"])
    actions += [f'TYPE {element(elements, "input", label)["id"]} "{value}"' for label, value in zip(labels, values)]
    return actions + [f'CLICK {element(elements, "button", "Search flights")["id"]}']


class SynapseCancel:
    """Cancels through Find booking; on the cancel dialog its first answer types the code into an
    id that is not on the page, so that action fails and the Confirm click after it is dropped."""

    def __init__(self):
        self.wrong_id_sent = False

    def __call__(self, request: dict) -> str:
        if model_role(request) == "ABSTRACTION":
            return synapse_abstraction(request)
        elements, code = synapse_state(request), trip(task_line(request))["code"]
        if named(elements, "text", "Status Cancelled"):
            return actions_reply(["STOP [done]"])
        dialog_field = element(elements, "input", "Confirmation code")
        confirm = element(elements, "button", "Confirm cancellation")
        if confirm:
            field_id = 9999 if not self.wrong_id_sent else dialog_field["id"]
            self.wrong_id_sent = True
            return actions_reply([f'TYPE {field_id} "{code}"', f'CLICK {confirm["id"]}'])
        if element(elements, "button", "Cancel booking"):
            return actions_reply([f'CLICK {element(elements, "button", "Cancel booking")["id"]}'])
        if dialog_field:
            return actions_reply([f'TYPE {dialog_field["id"]} "{code}"', f'CLICK {element(elements, "button", "Search")["id"]}'])
        return actions_reply([f'CLICK {element(elements, "link", "Find booking")["id"]}'])


def model_role(request: dict) -> str:
    """Which prompt of which method a request comes from, by its system prompt's opening."""
    system = system_text(request)
    for opening, role in (("You condense", "ABSTRACTION"), ("You write small programs", "WEBWISE"),
                          ("You plan", "PLANNER"), ("You are one policy", "STEP")):
        if system.startswith(opening):
            return role
    return "ACT" if "A task is written down as a trajectory" in system else "FLAT"


# --- webwise: one program per page -----------------------------------------------------------------

WEBWISE_KINDS = {"a": "link", "button": "button", "select": "select", "input_radio": "radio",
                 "input_checkbox": "checkbox", "option": "option"}


def webwise_page(request: dict) -> list[dict]:
    """The filtered page of the request, as elements the readers above understand."""
    from tests.agent.webwise_pages import parse_page

    page = user_text(request).split("FILTERED PAGE:\n", 1)[1].rsplit("\n\nWrite the next program.", 1)[0]
    return [{"id": item["id"], "name": item["text"], "value": item.get("value", ""),
             "kind": "input" if item["tag"].startswith("input_") and item["tag"] not in WEBWISE_KINDS
             else WEBWISE_KINDS.get(item["tag"], "text"), "checked": "checked" in item["flags"],
             "flags": item["flags"]} for item in parse_page(page)]


def program(*calls: str) -> str:
    return "```python\n" + "\n".join(calls) + "\n```"


def quoted(text: str) -> str:
    return '"' + text.replace('"', '\\"') + '"'


def webwise_search(elements: list[dict], task: dict) -> list[str]:
    wanted = trip(task)
    calls = [f'click({element(elements, "radio", "One way")["id"]})'] if one_way(task) else []
    labels = ("From", "To", "Departure date", "Return date")
    calls += [f'enter_text({element(elements, "input", label)["id"]}, {quoted(value)})'
              for label, value in zip(labels, (wanted["from"], wanted["to"], *wanted["dates"]))]
    return calls + ['click("Search flights")']


def webwise_open_booking(elements: list[dict], code: str) -> str:
    """From any page: Find booking, then the code and Search."""
    field = element(elements, "input", "Confirmation code")
    if field is None:
        return program('click("Find booking")')
    return program(f'enter_text({field["id"]}, {quoted(code)})', 'click("Search")')


def webwise_fill(elements: list[dict], values: dict, submit: str) -> str:
    calls = [f'enter_text({form_field(elements, label)["id"]}, {quoted(value)})' for label, value in values.items()
             if not shows(form_field(elements, label), value)]
    return program(*calls, f"click({quoted(submit)})")


def webwise_rules(request: dict) -> str:
    """A program for the page in the request, for every task type of the CRM."""
    elements, task = webwise_page(request), task_line(request)
    text = task_text(task).lower()
    rules = {"cancel": webwise_cancel, "book a ": webwise_book, "change the flights": webwise_modify_flight,
             "move booking": webwise_modify_flight, "on booking": webwise_update_passenger,
             "passenger details": webwise_update_passenger, "find the booking": webwise_find_booking,
             "look up booking": webwise_find_booking}
    rule = next((rule for words, rule in rules.items() if words in text), webwise_find_flight)
    return rule(elements, task)


def webwise_find_flight(elements: list[dict], task: dict) -> str:
    return program("done()") if element(elements, "text", "Search results") else program(*webwise_search(elements, task))


def webwise_book(elements: list[dict], task: dict) -> str:
    code = text_after(elements, "Confirmation code ")
    if code:
        return program(f"done({quoted(code)})")
    if form_field(elements, "Card number"):
        return webwise_fill(elements, card_values(task), "Book flight")
    if form_field(elements, "First name"):
        return webwise_fill(elements, passenger_values(task), "Save")
    if element(elements, "text", "Search results"):
        radios = [f'click({flight_radio(elements, n)["id"]})' for n in trip(task)["flights"]]
        return program(*radios, 'click("Checkout")')
    return program(*webwise_search(elements, task))


def webwise_find_booking(elements: list[dict], task: dict) -> str:
    code = trip(task)["code"]
    status = text_after(elements, "Status ")
    return program(f'done({quoted(f"{code}: {status}")})') if status else webwise_open_booking(elements, code)


def webwise_cancel(elements: list[dict], task: dict) -> str:
    code = trip(task)["code"]
    if element(elements, "button", "Confirm cancellation"):
        field = element(elements, "input", "Confirmation code")
        return program(f'enter_text({field["id"]}, {quoted(code)})', 'click("Confirm cancellation")')
    if named(elements, "text", "Status Cancelled"):
        return program("done()")
    if element(elements, "button", "Cancel booking"):
        return program('click("Cancel booking")')
    return webwise_open_booking(elements, code)


def webwise_update_passenger(elements: list[dict], task: dict) -> str:
    if element(elements, "text", "Passenger details saved"):
        return program("done()")
    if form_field(elements, "First name"):
        return webwise_fill(elements, passenger_changes(task), "Save")
    if element(elements, "button", "Modify booking"):
        return program('click("Modify booking")')
    return webwise_open_booking(elements, trip(task)["code"])


def webwise_modify_flight(elements: list[dict], task: dict) -> str:
    wanted = trip(task)
    if element(elements, "text", "Flights changed."):
        return program("done()")
    if element(elements, "text", "Select your departing flight"):
        radios = [f'click({flight_radio(elements, n)["id"]})' for n in wanted["flights"]]
        return program(*radios, 'click("Save flights")')
    if element(elements, "button", "Save flights"):
        return webwise_fill(elements, dict(zip(("Departure date", "Return date"), wanted["dates"])), "Search flights")
    for button in ("Change flights", "Modify booking"):
        if element(elements, "button", button):
            return program(f"click({quoted(button)})")
    return webwise_open_booking(elements, wanted["code"])
