"""The papers' reported numbers (agent/results/references/) and the table the command line prints: the
protocol line on top, the Fig. 5 layout for paper-protocol results with reference columns beside
the measured ones, #act as each protocol counts it, and the options that go with the protocol."""
from __future__ import annotations

import json

import pytest

from agent.__main__ import main
from agent.episode.trajectory import Trajectory
from agent.experiment.protocols import PAPER_CAPS, PROTOCOLS, step_limit
from agent.experiment.settings import differences, result_settings
from agent.results.references import ReferenceError, load_reference, reference_names
from agent.results.summary import summarize, summary_rows
from agent.results.table import describe_intervals, format_labelled
from tests.agent.command_line import refusal

PAPER_TASKS = ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
               "TASK_UPDATE_PASSENGER_DETAILS")


def episode(label, task, seed, success, actions, events, protocol="paper"):
    return Trajectory.from_json({
        "method": label.split("-")[0], "label": label, "task": task, "seed": seed, "trial": 0, "complete": True,
        "settings": {"protocol": protocol}, "agent_actions": actions,
        "metrics": {"success": success, "task_progress": 1.0 if success else 0.5, "num_actions": events}})


def test_heap_fig5_holds_the_numbers_printed_in_the_paper():
    heap = load_reference("heap-fig5")
    assert heap.labels == ["flat-zero-shot", "flat-few-shot", "heap-zero-shot", "heap-few-shot"]
    assert set(heap.cells) == set(PAPER_TASKS)
    assert [heap.value("heap-few-shot", task, "success")[0] for task in PAPER_TASKS] == [1.0, 0.65, 1.0, 1.0, 0.65]
    assert heap.value("flat-zero-shot", "TASK_CANCEL_FLIGHT", "#actions") == (11.20, 0.20)
    assert heap.value("heap-few-shot", "TASK_BOOK_FLIGHT", "progress") == (0.82, 0.05)
    assert heap.value("flat-few-shot", "TASK_UPDATE_PASSENGER_DETAILS", "#actions") == (11.10, 1.25)
    assert heap.cell("heap-zero-shot", "TASK_CANCEL_FLIGHT", "#actions") == "11.33 ± 0.85"
    assert "Figure 5" in heap.source and "text-davinci-003" in heap.model
    step = load_reference("step-fig5")
    assert {label: step.cell(label, "all tasks", "success") for label in step.labels} == {
        "flat-zero-shot": "0.24", "flat-few-shot": "0.76", "step-zero-shot": "0.68", "step-few-shot": "0.94"}
    assert step.cell("step-few-shot", "TASK_BOOK_FLIGHT", "success") == "-"


def test_an_unknown_reference_names_the_known_ones():
    assert reference_names() == ["heap-fig5", "step-fig5"]
    with pytest.raises(ReferenceError, match="unknown reference 'fig9'; known: heap-fig5, step-fig5"):
        load_reference("fig9")


def test_paper_results_take_the_fig5_layout_with_reference_columns_beside():
    runs = [episode("heap-few-shot", "TASK_FIND_BOOKING", seed, 1, 3, 3) for seed in range(2)]
    runs += [episode("step-zero-shot", "TASK_FIND_BOOKING", 0, 0, 10, 4)]
    text = format_labelled(summary_rows(runs), [load_reference("heap-fig5")])
    title, header, rule, *lines = text.splitlines()
    assert title == f"Protocol paper: {PROTOCOLS['paper'].description}. {describe_intervals(summarize(runs))}"
    assert title.endswith("percentile bootstrap over scenarios, 2000 resamples, random seed 0 for progress and pass^k.")
    columns = [column.strip() for column in header.split("  ") if column.strip()]
    assert columns == ["task", "metric", "heap-few-shot", "heap-few-shot (HeaP Fig. 5)", "step-zero-shot",
                       "flat-zero-shot (HeaP Fig. 5)", "flat-few-shot (HeaP Fig. 5)", "heap-zero-shot (HeaP Fig. 5)"]
    assert lines[0].split()[:10] == ["TASK_FIND_BOOKING", "success", "1.00", "±", "0.00", "[0.34,", "1.00]",  # Wilson, 2 of 2
                                     "1.00", "±", "0.00"]
    assert lines[2].split()[:6] == ["#actions", "3.0", "±", "0.0", "3.00", "±"]  # agent actions, not the 3 events
    assert lines[2].split()[7:10] == ["10.0", "±", "n/a"]  # step-zero-shot: its 10 actions
    assert [line.split()[0] for line in lines if not line.startswith(" ")][:2] == ["TASK_FIND_BOOKING", "all"]
    assert lines[-1].startswith("HeaP Fig. 5 (reported, not measured here):")


def test_full_results_keep_their_layout_under_the_protocol_line():
    runs = [episode("oracle", "TASK_FIND_BOOKING", 0, 1, 2, 3, protocol="full")]
    title, header, *_ = format_labelled(summarize(runs)).splitlines()
    assert title == f"Protocol full: {PROTOCOLS['full'].description}. {describe_intervals(summarize(runs))}"
    assert header.split()[:3] == ["task", "oracle", "success"]
    assert summarize(runs)[0]["actions_mean"] == 3.0  # #act of the full protocol: the recorded events


def test_the_caps_are_the_papers_unless_max_steps_is_given():
    paper, full = PROTOCOLS["paper"], PROTOCOLS["full"]
    assert [step_limit(paper.step_limits(None), task) for task in PAPER_TASKS] == [10, 25, 10, 10, 15]
    assert paper.step_limits(None) == PAPER_CAPS and paper.step_limits(4) == 4 and step_limit(4, "TASK_BOOK_FLIGHT") == 4
    assert full.step_limits(None) == 60 and full.tasks[-1] == "TASK_MODIFY_FLIGHT" and paper.tasks == PAPER_TASKS


def test_the_conversation_is_a_setting_of_the_paper_protocol_only():
    options = {"model": "m", "temperature": 0.3, "max_steps": PAPER_CAPS, "protocol": "paper"}
    shown = result_settings("heap", {**options, "conversation": True}, "few")
    hidden = result_settings("heap", options, "few")
    assert differences(shown, hidden) == ["conversation True (this run: False)"]
    assert "conversation" not in result_settings("heap", {**options, "protocol": "full", "conversation": True})


@pytest.mark.parametrize("extra, message", [
    (["--method", "synapse"], "--protocol paper has no prompts for synapse; its methods: oracle, flat, heap, step"),
    (["--tasks", "TASK_MODIFY_FLIGHT"], "TASK_MODIFY_FLIGHT is not in the paper protocol"),
    (["--reference", "fig9"], "--reference: unknown reference 'fig9'"),
])
def test_paper_runs_refuse_what_the_protocol_does_not_have(tmp_path, capsys, extra, message):
    code, err = refusal(main, ["run", "--protocol", "paper", "--model", "m", "--out", str(tmp_path), *extra], capsys)
    assert code == 2 and message in err
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("extra, message", [
    (["--conversation"], "--conversation is for --protocol paper"),
    (["--reference", "heap-fig5"], "--reference puts the papers' numbers beside paper-protocol results"),
])
def test_paper_options_need_the_paper_protocol(tmp_path, capsys, extra, message):
    code, err = refusal(main, ["run", "--out", str(tmp_path), *extra], capsys)
    assert code == 2 and message in err


def test_summarize_puts_references_beside_paper_results_only(tmp_path, capsys):
    path = tmp_path / "oracle" / "TASK_FIND_BOOKING" / "seed0-trial0.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(episode("oracle", "TASK_FIND_BOOKING", 0, 1, 3, 3, protocol="full").to_json()))
    code, err = refusal(main, ["summarize", "--out", str(tmp_path), "--reference", "heap-fig5"], capsys)
    assert code == 2 and "holds results of another protocol" in err
