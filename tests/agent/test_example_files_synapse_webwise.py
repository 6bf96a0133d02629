"""The example files of synapse (state abstraction: raw page -> abstracted state) and webwise (one
example per task: filtered pages and the programs written on them), all cut from real CRM pages:
every page line is one the observation makes, every state line is copied from its page, every
program parses and names elements that are on its page and can take the call; the prompts hold
them as they should. No browser, no model."""
import re

import pytest

from agent.env.executor import CLICKABLE_KINDS
from agent.env.observation import parse_line
from agent.policies import make_policy
from agent.policies.prompting import NO_EXAMPLES, load_prompt, prompt_exists
from agent.policies.webwise import example_file_key
from agent.policies.webwise_page import CONTROL_TAGS
from tests.agent.webwise_pages import parse_page_line
from agent.policies.webwise_program import parse_program
from scenarios.tasks import TASK_NAMES

_EXAMPLE = re.compile(r"^Example \d+ \((.+)\)$", re.MULTILINE)
CLICK_TAGS = {CONTROL_TAGS[kind] for kind in CLICKABLE_KINDS}
FIELD_TAGS = {CONTROL_TAGS["select"]}


def blocks(text: str) -> list[tuple[str, str]]:
    """(title, body) of each example of a file."""
    starts = list(_EXAMPLE.finditer(text))
    assert starts and starts[0].start() == 0, "an example file starts with an 'Example N (...)' line"
    ends = [m.start() for m in starts[1:]] + [len(text)]
    return [(m.group(1), text[m.end():end].strip()) for m, end in zip(starts, ends)]


def sections(body: str, names: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    """The body's `NAME:` sections in order, with their lines."""
    found = []
    for line in body.splitlines():
        head = re.fullmatch(rf"({'|'.join(names)}):\s?(.*)", line)
        if head:
            found.append((head.group(1), [head.group(2)] if head.group(2) else []))
        else:
            assert found, f"text before the first section: {line!r}"
            found[-1][1].append(line)
    return found


# --- synapse: the state abstraction examples -------------------------------------------------------

def abstraction_examples():
    return [(title, dict(sections(body, ("TASK", "PAGE", "STATE"))))
            for title, body in blocks(load_prompt("synapse/abstraction_examples"))]


def test_abstraction_examples_are_real_pages_and_states_copied_from_them():
    examples = abstraction_examples()
    assert len(examples) >= 5
    for title, parts in examples:
        assert list(parts) == ["TASK", "PAGE", "STATE"], title
        items = [parse_line(line) for line in parts["PAGE"]]
        assert all(items), f"{title}: a PAGE line is not an observation line"
        assert len({item["id"] for item in items}) == len(items), f"{title}: an id appears twice"
        summary, *kept = parts["STATE"]
        assert parse_line(summary) is None and len(summary.split()) >= 5, f"{title}: the state starts with a sentence"
        assert kept and all(line in parts["PAGE"] for line in kept), f"{title}: a state line is not on the page"
        assert len(kept) < len(parts["PAGE"]) / 2, f"{title}: the state should keep what the task needs only"


def test_abstraction_examples_cover_the_pages_that_matter():
    pages = "\n".join("\n".join(parts["PAGE"]) for _, parts in abstraction_examples())
    for shown in ("Find flights", "Search results", "Payment", "Unknown airport", "Cancel booking</button>",
                  "Confirm cancellation", "Modify booking"):
        assert shown in pages, f"no abstraction example shows {shown!r}"


@pytest.mark.parametrize("shots", ["0", "few"])
def test_the_abstraction_prompt_keeps_its_examples_zero_and_few_shot(shots, tmp_path):
    options = {"memory": str(_tiny_memory(tmp_path))} if shots == "few" else {}
    prompts = make_policy("synapse", shots=shots, model="m", api_key="k", **options).system_prompts()
    assert load_prompt("synapse/abstraction_examples") in prompts["ABSTRACTION"]
    assert (NO_EXAMPLES in prompts["ACT"]) == (shots == "0")


def _tiny_memory(tmp_path):
    from agent.policies.exemplar_memory.exemplars import Exemplar, Turn
    from agent.policies.exemplar_memory.store import ExemplarMemory

    memory = ExemplarMemory(tmp_path / "memory", [Exemplar("a", "TASK_FIND_BOOKING", "Look up booking X.", "s",
                                                           [Turn("page", ["STOP [done]"], "state")])])
    memory.save()
    return memory.folder


# --- webwise: one hand-written example per task ----------------------------------------------------

def webwise_example(task: str):
    name = f"webwise/{example_file_key(task)}_examples"
    assert prompt_exists(name), f"agent/policies/prompts/{name}.txt is missing"
    (example,) = blocks(load_prompt(name))  # exactly one example per task
    title, body = example
    parts = sections(body, ("TASK", "FILTERED PAGE", "PROGRAM"))
    assert parts[0][0] == "TASK" and len(parts[0][1]) == 1, title
    pairs = parts[1:]
    assert [name for name, _ in pairs] == ["FILTERED PAGE", "PROGRAM"] * (len(pairs) // 2), title
    return title, [(pairs[i][1], "\n".join(pairs[i + 1][1])) for i in range(0, len(pairs), 2)]


def check_call(call, page: dict[int, dict], context: str) -> None:
    """The element a call names is on the page and takes that call."""
    if call.name in ("scroll", "done"):
        return
    target = call.args[0]
    if isinstance(target, int):
        assert target in page, f"{context}: id {target} is not on the page"
        element = page[target]
    else:
        wanted = CLICK_TAGS if call.name == "click" else None
        named = [e for e in page.values() if e["text"] == target and (wanted is None or e["tag"] in wanted)]
        assert len(named) == 1, f"{context}: {target!r} names {len(named)} elements"
        element = named[0]
    if call.name == "click":
        assert element["tag"] in CLICK_TAGS, f"{context}: {call} clicks a {element['tag']}"
    else:
        assert element["tag"].startswith("input_") and element["tag"] not in CLICK_TAGS or element["tag"] in FIELD_TAGS, \
            f"{context}: {call} types into a {element['tag']}"
        if element["tag"] == "select":
            assert call.args[1] in element["options"].split("|"), f"{context}: {call.args[1]!r} is no option"


@pytest.mark.parametrize("task", TASK_NAMES)
def test_each_task_has_one_example_of_real_pages_and_programs_that_fit_them(task):
    title, steps = webwise_example(task)
    assert len(steps) >= 2, f"{title}: the example is step by step, two programs or more"
    for number, (lines, program) in enumerate(steps, 1):
        context = f"{task} program {number}"
        items = [parse_page_line(line) for line in lines]
        assert all(items), f"{context}: a page line is not a filtered-page line"
        page = {item["id"]: item for item in items}
        assert len(page) == len(items), f"{context}: an id appears twice"
        calls = parse_program(program)
        assert str.join("\n", map(str, calls)) == program, f"{context}: not written as the policy writes programs"
        assert (calls[-1].name == "done") == (number == len(steps)), f"{context}: done() ends the last program only"
        for call in calls:
            check_call(call, page, context)


def test_a_broken_webwise_example_is_caught():
    page = {10: {"id": 10, "tag": "input_text", "text": "From"}, 16: {"id": 16, "tag": "button", "text": "Search flights"},
            41: {"id": 41, "tag": "select", "text": "Title", "options": "Mr|Dr"}}
    for program, message in (("click(7)", "id 7 is not on"), ('enter_text(16, "x")', "types into a button"),
                             ("click(10)", "clicks a input_text"), ('enter_text(41, "Sir")', "is no option"),
                             ('click("Search")', "names 0 elements")):
        with pytest.raises(AssertionError, match=re.escape(message)):
            check_call(parse_program(program)[0], page, "test")


@pytest.mark.parametrize("shots", ["0", "few"])
def test_few_shot_webwise_prompts_hold_the_tasks_example_only(shots):
    policy = make_policy("webwise", shots=shots, model="m", api_key="k")
    policy.reset({"scenario": "TASK_CANCEL_FLIGHT", "instruction": "Cancel the booking with confirmation code X."})
    examples = {task: load_prompt(f"webwise/{example_file_key(task)}_examples") for task in TASK_NAMES}
    assert [task for task, text in examples.items() if text in policy.system] == (["TASK_CANCEL_FLIGHT"] if shots == "few" else [])
    assert (NO_EXAMPLES in policy.system) == (shots == "0")
    assert policy.system.index("Examples:" if shots == "0" else "An example task") < policy.system.rindex("Answer with the program")
