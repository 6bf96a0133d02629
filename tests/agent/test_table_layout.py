"""The printed table's layout: the wide one (a column group per method) while it fits the terminal
and has at most two methods, else a row per method and task in blocks as wide as the terminal;
`--wide` keeps the wide one whatever its width."""
import re
from pathlib import Path

import pytest

from agent.__main__ import main
from tests.agent.synthetic_runs import write_outcomes, write_run

SIX = ("flat-zero-shot", "heap-few-shot", "step-few-shot", "webwise-zero-shot", "synapse-few-shot", "toolcall-zero-shot")
TASKS = ("TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "TASK_FIND_BOOKING", "TASK_CANCEL_FLIGHT",
         "TASK_UPDATE_PASSENGER_DETAILS", "TASK_MODIFY_FLIGHT", "all tasks")
# What `summarize` printed for the six methods' run below before the total rows and the long form
WIDE_BEFORE = Path(__file__).parent / "data" / "six_methods_wide.txt"


@pytest.fixture
def six_methods(tmp_path) -> Path:
    write_run(tmp_path, labels=SIX, broken=False)
    return tmp_path


def printed(capsys, *argv) -> list[str]:
    assert main(["summarize", *argv]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("width", [120, 90])
def test_six_methods_print_a_row_per_method_and_task_within_the_terminal(six_methods, capsys, monkeypatch, width):
    monkeypatch.setenv("COLUMNS", str(width))
    lines = printed(capsys, "--out", str(six_methods))
    assert max(map(len, lines)) <= width
    table = "\n".join(lines).split("\n\n")[0].splitlines()  # the first block of columns
    header = table.index(next(line for line in table if line.startswith("method ")))
    assert table[header].split()[:3] == ["method", "task", "success"]
    assert [tuple(re.split(r"\s{2,}", line)[:2]) for line in table[header + 2:]] == [
        (label, task) for label in sorted(SIX) for task in TASKS]


def test_the_long_form_shows_each_methods_total(six_methods, capsys):
    lines = printed(capsys, "--out", str(six_methods))
    total = next(line for line in lines if line.startswith("flat-zero-shot      all tasks"))
    assert "0.61 ± 0.12 [0.39, 0.80]" in total  # 11 of 18 episodes


def test_wide_prints_the_layout_it_had_with_the_total_rows_added(six_methods, capsys):
    lines = printed(capsys, "--out", str(six_methods), "--wide")
    assert max(map(len, lines)) > 1200
    assert [line for line in lines if not line.startswith("all tasks")] == WIDE_BEFORE.read_text().splitlines()
    assert lines[-1].startswith("all tasks") and "0.61 ± 0.12 [0.39, 0.80]" in lines[-1]


def test_two_methods_that_fit_stay_wide_and_those_that_do_not_go_long(tmp_path, capsys, monkeypatch):
    for label in ("flat", "heap"):
        write_outcomes(tmp_path, label, {(task, seed, 0): seed % 2 for task in TASKS[:2] for seed in range(4)})
    monkeypatch.setenv("COLUMNS", "220")  # the task and two column groups are 212 wide
    lines = printed(capsys, "--out", str(tmp_path))
    header, rule, *body = lines[2:]  # the protocol line, wrapped to the width, takes two
    assert header.split()[:4] == ["task", "flat", "success", "flat"] and max(map(len, lines)) <= 220
    assert len(rule) == 212
    assert [line.split("  ")[0] for line in body] == ["TASK_FIND_FLIGHT", "TASK_BOOK_FLIGHT", "all tasks"]
    assert printed(capsys, "--out", str(tmp_path), "--wide")[1:] == [header, rule, *body]
    monkeypatch.setenv("COLUMNS", "120")
    lines = printed(capsys, "--out", str(tmp_path))
    assert max(map(len, lines)) <= 120 and any(line.split()[:2] == ["method", "task"] for line in lines)
