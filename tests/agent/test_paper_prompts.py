"""The paper protocol's prompts (agent/policies/prompts/paper/): few-shot examples in HeaP Table 3's counts,
cut from search and book-flight pages in the papers' observation (flat's from one task), every
reply one its policy accepts on its page; zero-shot prompts without CRM knowledge; and a called
policy's prompt that holds its own call but not the task. No browser, no model."""
from __future__ import annotations

import re

import pytest

from agent.env.actions import parse_action
from agent.env.executor import CLICKABLE_KINDS
from agent.env.observation import Observation, parse_line
from agent.policies import make_policy
from agent.policies.heap import HeapPolicy
from agent.policies.paper import GROUNDING, STEP_LIBRARY, PaperHeapPolicy
from agent.policies.prompting import NO_EXAMPLES
from agent.policies.reply import split_call
from agent.policies.step import Frame
from tests.agent.test_prompt_examples import history_entries, load, page_action

# (example file, kind of policy, policy name, exactly this many examples: HeaP Table 3, Airline CRM)
FILES = (
    ("paper/flat_examples", "flat", "FLAT", 5),
    ("paper/heap/planner_examples", "planner", "PLANNER", 3),
    ("paper/heap/fill_text_examples", "heap", "FILL_TEXT", 2),
    ("paper/heap/choose_date_examples", "heap", "CHOOSE_DATE", 2),
    ("paper/heap/select_flight_examples", "heap", "SELECT_FLIGHT", 3),
    ("paper/heap/page_action_examples", "heap", GROUNDING, 2),  # not in Table 3: the authors' client has 2
    ("paper/step/crm_examples", "step", "CRM", 3),
    ("paper/step/fill_text_examples", "step", "FILL_TEXT", 2),
    ("paper/step/choose_date_examples", "step", "CHOOSE_DATE", 2),
    ("paper/step/select_flight_examples", "step", "SELECT_FLIGHT", 3),
)
IDS = [f[0] for f in FILES]
PLAN_WORDS = ("FILL_TEXT", "CHOOSE_DATE", "SELECT_FLIGHT", "CLICK", "TYPE", "STOP")
# Page headings of the search and book-flight pages; the cancel task's pages for flat.
BOOKING_PAGES = (">Find flights</text>", ">Search results</text>", ">Passenger details</text>")
CANCEL_PAGES = (">Find flights</text>", ">Find booking</text>", ">Booking ", ">Cancel booking</text>")
# What the CRM's pages say: none of it may be in a zero-shot prompt.
CRM_WORDS = ("Find booking", "Search flights", "Checkout", "Confirm cancellation", "Modify booking",
             "Passenger details", "Book flight", "MM/DD/YYYY", "confirmation code", "How AirlineCRM works")


def policy(method: str, shots: str, **options):
    return make_policy(method, shots=shots, model="test-model", api_key="k", protocol="paper", **options)


@pytest.mark.parametrize("name, kind, policy_name, count", FILES, ids=IDS)
def test_each_policy_has_its_number_of_examples(name, kind, policy_name, count):
    examples = load(name)
    assert len(examples) == count
    for example in examples:
        assert example.fields.get("REASON") and example.page, example.title
        history_entries(example)


def test_the_counted_policies_have_table_3s_numbers():
    counted = {f[2]: f[3] for f in FILES if f[0].startswith("paper/heap/") and f[2] != GROUNDING}
    assert counted == {"PLANNER": 3, "FILL_TEXT": 2, "CHOOSE_DATE": 2, "SELECT_FLIGHT": 3}  # HeaP 10 in all
    assert {f[2]: f[3] for f in FILES if f[0] == "paper/flat_examples"} == {"FLAT": 5}
    assert sum(f[3] for f in FILES if f[0].startswith("paper/step/")) == 10  # SteP: the same library and counts


@pytest.mark.parametrize("name, kind, policy_name, count", FILES, ids=IDS)
def test_pages_are_in_the_papers_observation(name, kind, policy_name, count):
    """Every line an element line, no ERROR line, and each field's label a text line of its own
    right before the field (the field named by its own aria-label, the same text)."""
    for example in load(name):
        items = [parse_line(line) for line in example.page]
        assert all(items), f"{example.title}: a line that is not an element line"
        assert len({item["id"] for item in items}) == len(items), example.title
        assert not any(line.startswith("ERROR") for line in example.page)
        for before, item in zip(items, items[1:]):
            if item["kind"] in ("input", "select"):
                assert (before["kind"], before["name"]) == ("text", item["name"]), f"{example.title}: {item}"


@pytest.mark.parametrize("name, kind, policy_name, count", FILES, ids=IDS)
def test_examples_come_from_search_and_book_flight_pages_and_flat_from_one_task(name, kind, policy_name, count):
    examples = load(name)
    headings = CANCEL_PAGES if kind == "flat" else BOOKING_PAGES
    for example in examples:
        assert any(heading in line for line in example.page for heading in headings), example.title
    tasks = {example.fields.get("TASK") for example in examples}
    if kind == "flat":
        (task,) = tasks
        assert task.startswith("Cancel the booking with confirmation code ")
    elif kind in ("planner",) or policy_name == "CRM":
        assert all(task.startswith(("Find return flights", "Book return flights")) for task in tasks)


@pytest.mark.parametrize("name, kind, policy_name, count", FILES, ids=IDS)
def test_replies_are_ones_the_policy_accepts_on_its_page(name, kind, policy_name, count):
    for example in load(name):
        context = f"{name} / {example.title}"
        if kind == "planner":
            for line in example.reply.plan:
                plan_step(line, example, context)
            continue
        action = example.fields["ACTION"]
        assert example.reply.action == action, context
        word, argument = split_call(action)
        if kind == "heap" and word == "DONE":
            assert action == "DONE", context
        elif kind == "step" and word == "CALL":
            callee, value = split_call(argument)
            assert callee in STEP_LIBRARY and (": " in value or callee == "SELECT_FLIGHT"), context
        elif kind == "step" and word == "RETURN":
            assert re.fullmatch(r"RETURN \[[^\]]+\]", action), context
        else:  # the papers' reader lists an airport suggestion as text; the client clicks it
            page_action(action, example, context, clickable=CLICKABLE_KINDS | {"text"})


def plan_step(line: str, example, context: str) -> None:
    """A planner step heap.py runs, naming a field or element that is on the example's page."""
    word, _ = split_call(line)
    assert word in PLAN_WORDS, f"{context}: {line!r}"
    names = {item["name"] for item in example.elements().values()}
    if word in ("FILL_TEXT", "CHOOSE_DATE"):
        label, value = re.fullmatch(rf'{word} (\S.*?) "([^"]+)"', line).groups()
        assert label in names, f"{context}: no field {label!r} on the page"
    elif word == "CLICK":
        assert parse_action(line).target in names, f"{context}: no element {line!r} on the page"
    elif word == "SELECT_FLIGHT":
        assert re.fullmatch(r'SELECT_FLIGHT "[^"]+"', line), context


@pytest.mark.parametrize("name", ["paper/heap/select_flight_examples", "paper/step/select_flight_examples",
                                  "paper/heap/planner_examples", "paper/step/crm_examples"])
def test_flights_are_named_by_their_times_and_chosen_by_them(name):
    """The paper instruction names the outward flight by its departure and the return flight by its
    arrival, never by number: so do the SELECT_FLIGHT calls, and the radio clicked is the row with
    that time."""
    for example in load(name):
        calls = [line for line in (example.reply.plan or [example.fields.get("ACTION", "")]) if "SELECT_FLIGHT" in line]
        job = example.fields.get("YOUR CURRENT JOB", "")
        for text in calls + ([job] if "SELECT_FLIGHT" in job else []):
            assert not re.search(r"CR\d+", text) and re.search(r"departing at \d+:\d\d[ap]m", text), text
            assert re.search(r"arriving at \d+:\d\d[ap]m", text), text
        if "SELECT_FLIGHT" in job and example.fields["ACTION"].startswith("CLICK"):
            clicked = parse_action(example.fields["ACTION"]).target
            index = next(i for i, line in enumerate(example.page) if parse_line(line)["id"] == clicked)
            row = parse_line(example.page[index + 2])["name"].split()  # the radio, its label, then its row
            if example.history:  # the return flight, by its arrival time
                assert row[2] == re.search(r"arriving at (\S+m)", job).group(1), (example.title, row)
            else:  # the outward flight, by its departure time
                assert row[0] == re.search(r"departing at (\S+m)", job).group(1), (example.title, row)


@pytest.mark.parametrize("method", ["flat", "heap", "step"])
def test_zero_shot_prompts_know_nothing_of_the_crm_and_few_shot_prompts_hold_the_examples(method):
    zero, few = policy(method, "0").system_prompts(), policy(method, "few").system_prompts()
    for name, text in zero.items():
        assert NO_EXAMPLES in text, name
        assert not [word for word in CRM_WORDS if word.lower() in text.lower()], name
        assert "AirlineCRM" not in text and "ERROR" not in text, name
    for name, text in few.items():
        assert NO_EXAMPLES not in text and "Example 1" in text, name
    assert set(zero) == {"FLAT"} if method == "flat" else set(zero) == (
        {"PLANNER", "FILL_TEXT", "CHOOSE_DATE", "SELECT_FLIGHT", GROUNDING} if method == "heap" else set(STEP_LIBRARY))


def test_the_paper_variant_is_picked_by_the_protocol():
    assert type(policy("heap", "0")) is PaperHeapPolicy
    assert type(make_policy("heap", shots="0", model="m", api_key="k")) is HeapPolicy
    assert type(make_policy("heap", shots="0", model="m", api_key="k", protocol="full")) is HeapPolicy


def test_a_called_policy_is_shown_its_call_and_not_the_task():
    scenario = {"instruction": "Find return flights from PHL to SFO: out on 2027-04-16.",
                "conversation": [{"role": "CUS", "text": "I fly out of Philadelphia."}]}
    page = Observation('<text id=12>From</text>\n<input id=13 text From hint="City or airport code"/>')
    heap = policy("heap", "few", conversation=True)
    heap.reset(scenario)
    called = heap.state_prompt(page, ['TYPE 13 "PHL"'], 'FILL_TEXT From "PHL"')
    assert called.startswith('YOUR CURRENT JOB: FILL_TEXT From "PHL"\n') and '1. TYPE 13 "PHL"' in called
    assert scenario["instruction"] not in called and "Philadelphia" not in called and "TASK" not in called
    planner = heap.state_prompt(page, [])
    assert scenario["instruction"] in planner and "CUS: I fly out of Philadelphia." in planner
    step = policy("step", "0")
    step.reset(scenario)
    assert "Philadelphia" not in step._state(page, step.stack[0])  # no --conversation
    callee = step._state(page, Frame("FILL_TEXT", "From: PHL"))
    assert "YOUR CURRENT JOB: FILL_TEXT [From: PHL]" in callee and scenario["instruction"] not in callee
