"""The few-shot example files of the LLM policies (agent/policies/prompts/**/*_examples.txt): every policy
has enough examples, every reply in them is one its policy would accept and the action parser can
read, every element id an action names is on that example's page, and --shots few puts them into
the system prompt (--shots 0 does not). No browser, no model."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from agent.env.actions import ActionError, parse_action
from agent.env.executor import CLICKABLE_KINDS, FIELD_KINDS
from agent.env.observation import Observation, parse_line
from agent.policies import make_policy
from agent.policies.heap import LOW_LEVEL, PAGE_ACTIONS
from agent.policies.prompting import NO_EXAMPLES, load_prompt, prompt_exists
from agent.policies.reply import parse_reply, split_call
from agent.policies.step import LIBRARY, Frame

PLAN_WORDS = (*LOW_LEVEL, *PAGE_ACTIONS, "STOP")  # what heap.py runs from a plan

# (example file, kind of policy, policy name, at least this many examples)
FILES = (
    [("flat_examples", "flat", "FLAT", 5),
     ("heap/planner_examples", "planner", "PLANNER", 3),
     ("heap/fill_text_examples", "heap", "FILL_TEXT", 2),
     ("heap/choose_date_examples", "heap", "CHOOSE_DATE", 2),
     ("heap/select_flight_examples", "heap", "SELECT_FLIGHT", 3)]
    + [(f"step/{name.lower()}_examples", "step", name, 4 if name == "CRM" else 2) for name in LIBRARY]
)
IDS = [f[0] for f in FILES]

_HEADER = re.compile(r"^Example\b.*$", re.MULTILINE)
_FIELD = re.compile(r"^(TASK|YOUR CURRENT JOB|YOUR PREVIOUS ACTIONS|CURRENT PAGE|REASON|ACTION|PLAN):\s?(.*)$")


@dataclass
class Example:
    title: str
    text: str
    fields: dict[str, str] = field(default_factory=dict)
    history: list[str] = field(default_factory=list)
    page: list[str] = field(default_factory=list)

    @property
    def reply(self):
        """The example's answer read as the policies read a model's reply."""
        return parse_reply(self.text[self.text.index("\nREASON:"):])

    def elements(self) -> dict[int, dict]:
        return {item["id"]: item for item in map(parse_line, self.page) if item}


def parse_examples(text: str) -> list[Example]:
    starts = [m.start() for m in _HEADER.finditer(text)]
    assert starts and starts[0] == 0, "an example file starts with an 'Example' line"
    examples = []
    for begin, end in zip(starts, starts[1:] + [len(text)]):
        block = text[begin:end].strip()
        title, *lines = block.splitlines()
        example, section = Example(title, block), None
        for line in lines:
            match = _FIELD.match(line)
            if match:
                section = match.group(1)
                assert section not in example.fields, f"{title}: {section} twice"
                example.fields[section] = match.group(2).strip()
                continue
            if section == "YOUR PREVIOUS ACTIONS":
                example.history.append(line)
            elif section == "CURRENT PAGE":
                example.page.append(line)
            elif section == "PLAN":
                example.fields["PLAN"] += "\n" + line
            else:
                raise AssertionError(f"{title}: unexpected line {line!r} in {section}")
        examples.append(example)
    return examples


def load(name: str) -> list[Example]:
    return parse_examples(load_prompt(name))


def history_entries(example: Example) -> list[str]:
    """The numbered previous actions, checked to be numbered 1, 2, ... or '(none yet)'."""
    inline = example.fields["YOUR PREVIOUS ACTIONS"]
    if inline:
        assert inline == "(none yet)" and not example.history, example.title
        return []
    entries = []
    for number, line in enumerate(example.history, 1):
        prefix = f"{number}. "
        assert line.startswith(prefix), f"{example.title}: history line {line!r} is not numbered {number}"
        entries.append(line[len(prefix):])
    assert entries, f"{example.title}: empty history must read (none yet)"
    return entries


def page_action(text: str, example: Example, context: str, clickable=CLICKABLE_KINDS):
    """Parse a CLICK/TYPE/CLEAR action and check it against the example's page: the id is there
    and the element is of a kind the action can use (`clickable`; a select takes one of its options)."""
    try:
        action = parse_action(text)
    except ActionError as error:
        raise AssertionError(f"{context}: {text!r} does not parse: {error}") from None
    assert action.name in ("click", "type", "clear"), f"{context}: {text!r} is not a page action"
    assert isinstance(action.target, int), f"{context}: {text!r} names no element id"
    elements = example.elements()
    assert action.target in elements, f"{context}: id={action.target} is not on the example's CURRENT PAGE"
    element = elements[action.target]
    if action.name == "click":
        assert element["kind"] in clickable, f"{context}: {text!r} clicks a {element['kind']}"
    else:
        assert element["kind"] in FIELD_KINDS, f"{context}: {text!r} types into a {element['kind']}"
    if action.name == "type" and element["kind"] == "select":
        assert action.value in element["options"], f"{context}: {action.value!r} is not an option of {element['id']}"
    return action


def plan_step(line: str, context: str) -> str:
    """A planner step as heap.py runs it; returns its word."""
    word, argument = split_call(line)
    assert word in PLAN_WORDS, f"{context}: plan step {line!r} starts with no planner step word"
    if word in ("FILL_TEXT", "CHOOSE_DATE"):
        match = re.fullmatch(rf'{word} (\S.*?) "([^"]+)"', line)
        assert match, f'{context}: {line!r} is not {word} <field label> "<text>"'
        if word == "CHOOSE_DATE":
            assert re.fullmatch(r"\d{2}/\d{2}/\d{4}", match.group(2)), f"{context}: {line!r} is not MM/DD/YYYY"
    elif word == "SELECT_FLIGHT":
        assert re.fullmatch(r'SELECT_FLIGHT "CR\d+"', line), f'{context}: {line!r} is not SELECT_FLIGHT "CR<number>"'
    elif word == "STOP":
        assert re.fullmatch(r"STOP \[[^\]]+\]", line), f"{context}: {line!r} is not STOP [answer]"
    else:
        parse_action(line)  # CLICK <label or id>, TYPE <id> "text", CLEAR <id>
    return word


# --- the files and their examples ---------------------------------------------------------------

@pytest.mark.parametrize("name, kind, policy, minimum", FILES, ids=IDS)
def test_every_policy_has_enough_examples(name, kind, policy, minimum):
    assert prompt_exists(name), f"agent/policies/prompts/{name}.txt is missing"
    examples = load(name)
    assert len(examples) >= minimum, f"{name}: {len(examples)} examples, at least {minimum} wanted"
    for example in examples:
        assert example.fields.get("REASON"), f"{example.title}: no REASON"
        assert ("PLAN" if kind == "planner" else "ACTION") in example.fields, f"{example.title}: no answer"
        assert example.page, f"{example.title}: no CURRENT PAGE lines"
        history_entries(example)


@pytest.mark.parametrize("name, kind, policy, minimum", FILES, ids=IDS)
def test_page_lines_are_observation_lines_with_one_element_per_id(name, kind, policy, minimum):
    for example in load(name):
        ids = []
        for number, line in enumerate(example.page):
            if number == 0 and line.startswith("ERROR: "):
                continue
            item = parse_line(line)
            assert item is not None, f"{example.title}: {line!r} is not an observation line"
            ids.append(item["id"])
        assert len(ids) == len(set(ids)), f"{example.title}: an id appears twice on the page"


@pytest.mark.parametrize("name, kind, policy, minimum",
                         [f for f in FILES if f[1] != "planner"], ids=[f[0] for f in FILES if f[1] != "planner"])
def test_actions_are_ones_the_policy_accepts(name, kind, policy, minimum):
    for example in load(name):
        action = example.fields["ACTION"]
        assert example.reply.action == action, f"{example.title}: the reply parser reads {example.reply.action!r}"
        context = f"{name} / {example.title}"
        word, argument = split_call(action)
        if kind == "heap" and word == "DONE":
            assert action == "DONE", context
        elif kind == "step" and word == "CALL":
            callee, callee_argument = split_call(argument)
            assert callee in LIBRARY and callee_argument, f"{context}: {action!r} is not CALL <POLICY> [argument]"
            assert action == f"CALL {callee} [{callee_argument}]", context
        elif kind == "step" and word == "RETURN":
            assert re.fullmatch(r"RETURN \[[^\]]+\]", action), f"{context}: {action!r} is not RETURN [value]"
        elif word == "STOP" and kind in ("flat", "step"):
            assert parse_action(action).name == "stop", context
        else:
            page_action(action, example, context)


@pytest.mark.parametrize("name, kind, policy, minimum", FILES, ids=IDS)
def test_histories_hold_what_the_policy_records(name, kind, policy, minimum):
    """flat and the HeaP low-level policies remember page actions; SteP also its calls and their
    returns; the HeaP planner the plan steps carried out."""
    for example in load(name):
        context = f"{name} / {example.title}"
        for entry in history_entries(example):
            word, argument = split_call(entry)
            if kind == "planner":
                plan_step(entry, context)
            elif kind == "step" and word == "CALL":
                assert split_call(argument)[0] in LIBRARY, f"{context}: {entry!r}"
            elif kind == "step" and re.fullmatch(r"([A-Z_]+) returned: .+", entry):
                assert entry.split()[0] in LIBRARY, f"{context}: {entry!r}"
            else:
                assert parse_action(entry).name in ("click", "type", "clear"), f"{context}: {entry!r}"


@pytest.mark.parametrize("name, kind, policy, minimum", FILES, ids=IDS)
def test_current_job_line_is_rendered_as_the_policy_renders_it(name, kind, policy, minimum):
    for example in load(name):
        job = example.fields.get("YOUR CURRENT JOB")
        context = f"{name} / {example.title}"
        if kind in ("flat", "planner") or policy == "CRM":
            assert job is None, f"{context}: {kind} {policy} has no current job"
        elif kind == "heap":  # the plan entry itself
            assert job and plan_step(job, context) == policy, f"{context}: job {job!r}"
        else:  # step: the line the stack renders for a policy called with this argument
            match = re.fullmatch(r"(\w+) \[(.+)\]", job or "")
            assert match and match.group(1) == policy, f"{context}: job {job!r}"
            assert rendered_step_job(policy, match.group(2)) == job, f"{context}: rendered differently"


def rendered_step_job(policy: str, argument: str) -> str:
    """The YOUR CURRENT JOB line of the state prompt SteP builds for a called policy."""
    step = policy_of("step", "0")
    step.reset({"instruction": "a task"})
    state = step._state(Observation("<text id=1>AirlineCRM</text>"), Frame(policy, argument))
    return re.search(r"^YOUR CURRENT JOB: (.*)$", state, re.MULTILINE).group(1)


def test_planner_examples_plan_more_than_a_search():
    plans = []
    for example in load("heap/planner_examples"):
        context = f"planner / {example.title}"
        reply = example.reply
        assert reply.has_plan and reply.plan, f"{context}: no PLAN lines the reply parser reads"
        words = [plan_step(line, context) for line in reply.plan]
        assert "STOP" not in words or words == ["STOP"], f"{context}: STOP stands alone"
        plans.append(list(reply.plan))
    steps = [line for plan in plans for line in plan]
    assert {split_call(line)[0] for line in steps} >= set(PLAN_WORDS) - {"TYPE", "CLEAR"}
    for wanted in ("CLICK Cancel booking", "CLICK Confirm cancellation", "CLICK Checkout", "CLICK Save",
                   "CLICK Find booking", 'FILL_TEXT Title "'):
        assert any(line.startswith(wanted) for line in steps), f"no planner example plans {wanted!r}"


def test_crm_examples_cover_the_tasks():
    examples = load("step/crm_examples")
    done = "\n".join(e.fields["ACTION"] + "\n" + "\n".join(e.history) for e in examples)
    for policy in ("FIND_BOOKING", "CANCEL_BOOKING", "SEARCH_FLIGHT", "SELECT_FLIGHT", "PASSENGER_DETAILS", "PAYMENT"):
        assert f"CALL {policy} [" in done, f"no CRM example calls {policy}"
    tasks = {e.fields.get("TASK", "").split()[0] for e in examples}
    assert {"Find", "Book", "Update", "Move"} <= tasks, tasks
    assert any(e.fields["ACTION"].startswith("RETURN [") for e in examples)


def test_a_broken_example_is_caught():
    """The checks above can fail: an id missing from the page, a select option that does not exist
    and a plan step with no policy word are all refused."""
    text = ("Example 1\nYOUR PREVIOUS ACTIONS: (none yet)\nCURRENT PAGE:\n"
            '<select id=41 Title options="Mr|Mrs|Ms|Miss|Dr"/>\n<button id=48>Save</button>\n'
            "REASON: r\nACTION: CLICK 7\n")
    (example,) = parse_examples(text)
    with pytest.raises(AssertionError, match="id=7 is not on"):
        page_action(example.fields["ACTION"], example, "test")
    with pytest.raises(AssertionError, match="not an option"):
        page_action('TYPE 41 "Sir"', example, "test")
    with pytest.raises(AssertionError, match="clicks a select"):
        page_action("CLICK 41", example, "test")
    with pytest.raises(AssertionError, match="no planner step word"):
        plan_step('ENTER From "AUS"', "test")


# --- the examples in the system prompts ---------------------------------------------------------

def policy_of(method: str, shots: str):
    """Built as the runner builds it; a model name and a key are needed, no server is contacted."""
    return make_policy(method, shots=shots, model="test-model", api_key="k")


def systems(method: str, shots: str) -> dict[str, str]:
    return policy_of(method, shots).system_prompts()


@pytest.mark.parametrize("name, kind, policy, minimum", FILES, ids=IDS)
def test_few_shot_prompts_hold_the_examples_and_zero_shot_prompts_do_not(name, kind, policy, minimum):
    method = "flat" if kind == "flat" else "heap" if kind in ("heap", "planner") else "step"
    text = load_prompt(name)
    few, zero = systems(method, "few")[policy], systems(method, "0")[policy]
    assert text in few and NO_EXAMPLES not in few
    assert NO_EXAMPLES in zero and text not in zero
    assert few.index(text) < few.rindex("Reply in exactly this form")  # before the reply format
    if kind == "step":
        assert re.search(rf"You are one policy, {policy},", few)  # what scripted test models read
    if kind == "planner":
        assert few.startswith("You plan")
