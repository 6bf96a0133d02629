"""Every few-shot example under agent/policies/prompts/ is cut from a real page of the CRM as it runs today:
each example's provenance (agent/policies/prompts/**/*_examples.provenance.json) is replayed in Chromium
against an embedded server, and the example's page blocks and task line must be exactly what the
CRM shows after those actions, in the example's observation format. Histories must be the actions
that led there. One replay for all files (examples that share a scenario share its episodes).
When this fails, `python -m agent.examples refresh` writes today's pages into the files; then fix
what the examples say about them."""
from __future__ import annotations

import concurrent.futures
import json

import pytest

from agent.env.actions import ActionError, parse_action
from agent.examples.__main__ import main as examples_main
from agent.examples.files import PROVENANCE_SUFFIX, PageSource, ProvenanceError, Scenario, example_names, load
from agent.examples.render import difference, render_files
from agent.examples.replay import Replayer, example_server
from agent.policies.prompting import PROMPTS, load_prompt
from tests.agent.test_prompt_examples import history_entries, parse_examples

NAMES = example_names()
FLAT = ("flat_examples", "paper/flat_examples")  # one policy for the whole episode: its history is every action
EVALUATED_SEEDS = range(0, 1000)  # `python -m agent run` plays seeds 0, 1, ... (webwise --shots auto: 100000, ...)


@pytest.fixture(scope="module")
def replayer(browser):
    with example_server() as server, Replayer(server.url, browser=browser) as replayer:
        yield replayer


@pytest.fixture(scope="module")
def rendered(replayer):
    """Every example file as the CRM renders it today."""
    return render_files([load(name) for name in NAMES], replayer)


def test_every_example_file_has_a_provenance_and_every_provenance_an_example_file():
    assert len(NAMES) >= 31, NAMES  # flat, heap, step, synapse, webwise and the paper protocol's files
    sidecars = {str(path.relative_to(PROMPTS))[:-len(PROVENANCE_SUFFIX)] for path in PROMPTS.rglob(f"*{PROVENANCE_SUFFIX}")}
    assert sidecars == set(NAMES)
    for name in NAMES:
        assert load(name).examples


@pytest.mark.parametrize("name", NAMES)
def test_example_pages_are_the_pages_the_crm_renders_today(name, rendered):
    file = load(name)
    change = difference(file, rendered[name])
    assert not change, (f"agent/policies/prompts/{name}.txt is not what the CRM shows today; run `python -m agent.examples "
                        f"refresh {name}` and fix what its examples say:\n{change}")


@pytest.mark.parametrize("name", [n for n in NAMES if "CURRENT PAGE:" in load_prompt(n)])
def test_histories_are_the_actions_that_led_to_the_page(name):
    """A history's page actions are the provenance's, in order; a history of page actions only is
    how the provenance ends (the called policy's own actions), and flat's history is all of it."""
    for example, source in zip(parse_examples(load_prompt(name)), load(name).examples, strict=True):
        history, actions = history_entries(example), list(source.actions)
        page_actions = [entry for entry in history if _by_id(entry)]
        assert _in_order(page_actions, actions), f"{name} / {example.title}: {page_actions} not in {actions}"
        if name in FLAT:
            assert history == actions, f"{name} / {example.title}"
        elif len(page_actions) == len(history):
            assert actions[len(actions) - len(history):] == history, f"{name} / {example.title}"


def test_examples_are_not_scenarios_an_evaluation_plays():
    for name in NAMES:
        for example in load(name).examples:
            assert example.scenario.seed not in EVALUATED_SEEDS and example.scenario.seed < 100_000, \
                f"{name} / {example.title}: seed {example.scenario.seed}"


def _by_id(entry: str) -> bool:
    try:
        action = parse_action(entry)
    except ActionError:
        return False
    return action.name in ("click", "type", "clear") and isinstance(action.target, int)


def _in_order(part: list[str], whole: list[str]) -> bool:
    rest = iter(whole)
    return all(any(entry == action for action in rest) for entry in part)


# --- a provenance that does not fit is refused ------------------------------------------------------

def test_a_failed_action_before_the_last_one_is_refused(replayer):
    source = PageSource(Scenario("full", "TASK_FIND_BOOKING", 4201), ("CLICK 99", "CLICK 3"))
    with pytest.raises(ProvenanceError, match=r"action 1: CLICK 99 failed: There is no element with id 99"):
        replayer.pages([source])
    last = PageSource(Scenario("full", "TASK_FIND_BOOKING", 4201), ("CLICK 3", "CLICK 99"))
    assert replayer.pages([last])[last].text.startswith("ERROR: CLICK 99 failed")


def test_files_that_do_not_fit_their_provenance_are_refused(tmp_path):
    example = "Example 1 (t)\nTASK: x\nCURRENT PAGE:\n<text id=1>AirlineCRM</text>\nREASON: r\nACTION: CLICK 1\n"
    (tmp_path / "a_examples.txt").write_text(example)
    with pytest.raises(ProvenanceError, match="has no provenance file a_examples.provenance.json"):
        load("a_examples", tmp_path)
    for provenance, message in (
            ({"format": "pages", "examples": []}, "format must be one of"),
            ({"format": "elements", "examples": []}, "0 provenance entries for 1 examples"),
            ({"format": "elements", "examples": [{"task": "TASK_FIND_BOOKING"}]}, "needs a task and a seed"),
            ({"format": "elements", "examples": [{"task": "T", "seed": 1, "actions": "CLICK 1"}]}, "must be a list"),
            ({"format": "elements", "examples": [{"task": "T", "seed": 1, "actions": [], "code": "x"}]}, "code must be"),
            ({"format": "webwise", "examples": [{"task": "T", "seed": 1, "actions": []}]}, "programs are its actions")):
        (tmp_path / f"a_examples{PROVENANCE_SUFFIX}").write_text(json.dumps(provenance))
        with pytest.raises(ProvenanceError, match=message):
            load("a_examples", tmp_path)
    (tmp_path / f"a_examples{PROVENANCE_SUFFIX}").write_text(
        json.dumps({"format": "elements", "examples": [{"task": "TASK_FIND_BOOKING", "seed": 4201, "actions": ["CLICK 3"]}]}))
    file = load("a_examples", tmp_path)
    assert file.page(file.examples[0]) == "<text id=1>AirlineCRM</text>" and file.task(file.examples[0]) == "x"


# --- the capture command: python -m agent.examples ---------------------------------------------------

def test_check_finds_a_stale_page_and_refresh_writes_the_page_the_crm_shows(tmp_path, replayer, capsys):
    stale = "Example 1 (the first page)\nTASK: an old task\nCURRENT PAGE:\n<text id=1>An old page</text>\nREASON: r\nACTION: CLICK 3\n"
    (tmp_path / "step").mkdir()
    (tmp_path / "step/old_examples.txt").write_text(stale)
    (tmp_path / f"step/old_examples{PROVENANCE_SUFFIX}").write_text(
        json.dumps({"format": "elements", "examples": [{"task": "TASK_FIND_BOOKING", "seed": 4201, "actions": []}]}))
    folder = ("--prompts", str(tmp_path))

    code, out, err = examples_cli("check", *folder, capsys=capsys)
    assert code == 1, err
    assert "-<text id=1>An old page</text>\n+<text id=1>AirlineCRM</text>" in out
    assert (f"0 of 1 example files show the CRM's pages as it renders them today; refresh the others: "
            f"python -m agent.examples refresh --prompts {tmp_path} step/old_examples") in out
    assert (tmp_path / "step/old_examples.txt").read_text() == stale  # check writes nothing

    code, out, err = examples_cli("refresh", *folder, "step/old_examples", capsys=capsys)
    assert code == 0 and "1 of 1 example files changed" in out, err
    lines = (tmp_path / "step/old_examples.txt").read_text().split("\n")
    assert lines[:4] == ["Example 1 (the first page)", f"TASK: {_instruction(replayer, 'TASK_FIND_BOOKING', 4201)}",
                         "CURRENT PAGE:", "<text id=1>AirlineCRM</text>"]
    assert lines[-3:] == ["REASON: r", "ACTION: CLICK 3", ""]  # what the example's author wrote is kept

    code, out, err = examples_cli("check", *folder, capsys=capsys)
    assert code == 0 and out.endswith("1 of 1 example files show the CRM's pages as it renders them today\n"), err


def test_the_page_command_prints_the_task_and_the_page_after_the_actions(replayer, capsys):
    code, out, err = examples_cli("page", "TASK_FIND_BOOKING", "4201", "CLICK 3", "CLICK 99", capsys=capsys)
    assert code == 0, err
    lines = out.split("\n")
    assert lines[0] == f"TASK: {_instruction(replayer, 'TASK_FIND_BOOKING', 4201)}"
    assert lines[1].startswith("ERROR: CLICK 99 failed: There is no element with id 99")
    assert "<button id=19>Search</button>" in lines, lines  # the Find booking page


def test_the_capture_command_refuses_what_it_cannot_replay(capsys):
    code, _, err = examples_cli("check", "heap/no_such_examples", capsys=capsys)
    assert code == 2 and "error: no example file heap/no_such_examples under" in err
    code, _, err = examples_cli("page", "TASK_NO_SUCH_TASK", "4201", capsys=capsys)
    assert code == 2 and "Unknown task: TASK_NO_SUCH_TASK" in err


def examples_cli(*arguments: str, capsys) -> tuple[int, str, str]:
    """`python -m agent.examples ...`: its exit code, output and errors. In a thread of its own: it
    starts its own server and Chromium, and Playwright's sync API refuses the thread of the
    session's browser."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        code = thread.submit(examples_main, list(arguments)).result(timeout=120)
    out, err = capsys.readouterr()
    return code, out, err


def _instruction(replayer: Replayer, task: str, seed: int) -> str:
    replayer.pages([PageSource(Scenario("full", task, seed), ())])
    return replayer.instructions[Scenario("full", task, seed)]
