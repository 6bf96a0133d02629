"""WebWISE's programs are parsed with `ast`, never run: only sequenced calls of the API with literal
arguments are accepted; everything else is refused with a reason and nothing of it executes. Also
the filtered page's line format. No browser, no model."""
import builtins
import os

import pytest

from agent.env.actions import parse_action
from agent.policies.webwise_page import filtered_page
from tests.agent.webwise_pages import parse_page
from agent.policies.webwise_program import ProgramError, parse_program


def test_a_program_becomes_one_action_per_call_in_order():
    reply = 'Here it is:\n```python\nclick(9)\nenter_text(10, "SEA")\nenter_text("To", "BOS")\n' \
            'scroll("down")\nclick("Search flights")\ndone()\n```\nGood luck.'
    calls = parse_program(reply)
    assert [call.action() for call in calls] == [
        "CLICK 9", 'TYPE 10 "SEA"', 'TYPE To "BOS"', "SCROLL down", "CLICK Search flights", "STOP [done]"]
    assert [str(call) for call in calls][:2] == ["click(9)", 'enter_text(10, "SEA")']
    for call in calls:  # every call is an action the one parser reads back
        parse_action(call.action())
    assert parse_program('done("Confirmed, Ms Ada Byron")')[0].action() == "STOP [Confirmed, Ms Ada Byron]"
    assert parse_program("enter_text(5, 'say \"hi\"')")[0].action() == "TYPE 5 'say \"hi\"'"


def test_hostile_programs_are_refused_and_nothing_runs(tmp_path, monkeypatch):
    """Each program would create the sentinel file if it were executed."""
    sentinel = tmp_path / "pwned"
    ran = []
    for name in ("exec", "eval", "__import__", "open"):  # (ast.parse compiles to a tree only)
        original = getattr(builtins, name)
        monkeypatch.setattr(builtins, name, lambda *a, _name=name, _original=original, **k: (
            ran.append(_name) if "pwned" in repr(a) else None) or _original(*a, **k))
    monkeypatch.setattr(os, "system", lambda command: ran.append(command))
    touch = f"open({str(sentinel)!r}, 'w')"
    hostile = {
        f"__import__('os').system('touch {sentinel}')": "is not an API function",
        f"import os\nos.system('touch {sentinel}')": "an import is not allowed",
        f"os.system('touch {sentinel}')": "os.system is not an API function",
        "click(1).__class__": "the expression",
        f"for step in range(3):\n    {touch}": "a for loop is not allowed",
        f"while True:\n    {touch}": "a while loop is not allowed",
        f"(lambda: {touch})()": "is not an API function",
        f"lambda: {touch}": "a lambda is not allowed",
        f"exec({touch!r})": "exec is not an API function",
        f"eval({touch!r})": "eval is not an API function",
        f"click({touch})": "arguments must be literal strings or integers",
        f"click(1)\nx = {touch}": "an assignment is not allowed",
        f"def go():\n    {touch}\ngo()": "a function definition is not allowed",
        f"click(*[{touch}])": "pass the arguments of click by position",
        f"enter_text(id={touch}, text='x')": "pass the arguments of enter_text by position",
        "click(True)": "arguments must be literal strings or integers, not True",
        "click(3, 4)": "click takes id_or_text; got 2 argument(s)",
        "scroll('sideways')": "scroll takes 'down' or 'up'",
        "done()\nclick(3)": "done() must be the last call",
        "click(3": "is not a program of API calls",
        "I would click the search button.": "is not a program of API calls",
        "": "holds no program",
    }
    for program, reason in hostile.items():
        with pytest.raises(ProgramError, match=reason.replace("(", r"\(").replace(")", r"\)")):
            parse_program(program)
    assert not sentinel.exists() and ran == []


def test_filtered_page_lines_show_tags_values_and_marks_and_read_back():
    items = [{"id": 1, "kind": "text", "name": "AirlineCRM", "tag": "header"},
             {"id": 6, "kind": "text", "name": "Find flights", "tag": "h1"},
             {"id": 9, "kind": "radio", "name": "One way", "checked": True},
             {"id": 10, "kind": "input", "name": "From", "type": "text", "value": 'say "SEA"'},
             {"id": 12, "kind": "input", "name": "Departure date", "type": "text", "value": "", "hint": "MM/DD/YYYY"},
             {"id": 41, "kind": "select", "name": "Title", "value": "Dr", "options": ["Mr", "Dr"]},
             {"id": 16, "kind": "button", "name": "Search flights", "offscreen": "below"},
             {"id": 3, "kind": "link", "name": "Find booking"},
             {"id": 30, "kind": "text", "name": "Depart From Arrive To", "tag": "tr"}]
    page = filtered_page(items, {10: "changed", 9: "clicked"})
    assert page.splitlines() == [
        '[6] h1 "Find flights"', '[9] input_radio "One way" checked clicked',
        '[10] input_text "From" value="say \\"SEA\\"" changed', '[12] input_text "Departure date" placeholder="MM/DD/YYYY"',
        '[41] select "Title" value="Dr" options="Mr|Dr"', '[16] button "Search flights" offscreen-below',
        '[3] a "Find booking"', '[30] tr "Depart From Arrive To"']  # the header text is left out
    read = parse_page(page)
    assert [item["id"] for item in read] == [6, 9, 10, 12, 41, 16, 3, 30]
    assert read[2]["value"] == 'say "SEA"' and read[2]["flags"] == ["changed"] and read[1]["flags"] == ["checked", "clicked"]
    assert read[4]["options"] == "Mr|Dr" and read[5]["flags"] == ["offscreen-below"]
