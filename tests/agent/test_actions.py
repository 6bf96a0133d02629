"""The action grammar: every spelling of the spec parses to the same action; garbage is refused
with a message that says what is expected."""
import re

import pytest

from agent.env.actions import ACTION_SET, COORDINATE_ACTIONS, Action, ActionError, describe_actions, parse_action


@pytest.mark.parametrize(
    "text, expected",
    [
        ("CLICK 6", Action("click", 6)),
        ("click [6]", Action("click", 6)),
        ("Click [ 6 ]", Action("click", 6)),
        ('TYPE 6 "JFK"', Action("type", 6, "JFK")),
        ("type [6] [JFK]", Action("type", 6, "JFK")),
        ("type [6] [New York] [1]", Action("type", 6, "New York", press_enter=True)),
        ("TYPE 6 JFK", Action("type", 6, "JFK")),
        ('type 6 ""', Action("type", 6, "")),
        ("CLEAR 6", Action("clear", 6)),
        ("clear [6]", Action("clear", 6)),
        ("stop [GWHVKK]", Action("stop", value="GWHVKK")),
        ("STOP", Action("stop", value="")),
        ('STOP "done"', Action("stop", value="done")),
        ("CLICK Search flights", Action("click", "Search flights")),
        ("click [Search flights]", Action("click", "Search flights")),
        ('TYPE From "JFK"', Action("type", "From", "JFK")),
        ('type [Departure date] [07/07/2026]', Action("type", "Departure date", "07/07/2026")),
        ("CLICK <button id=13>Search flights</button>", Action("click", 13)),
        ("ACTION: click [13]", Action("click", 13)),
        ("`CLICK 13`", Action("click", 13)),
        ("SCROLL down", Action("scroll", value="down")),
        ("scroll [up]", Action("scroll", value="up")),
        ("Scroll DOWN", Action("scroll", value="down")),
    ],
)
def test_every_spelling_parses(text, expected):
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "Empty action"),
        ("jump 6", "Unknown action"),
        ("CLICK", "needs an element"),
        ("TYPE From JFK", "quote the text"),
        ("click [6] [7]", "one [id]"),
        ("type [6]", "type [id] [text]"),
        ("click [6] trailing", "expected click [id]"),
        ("CLICK <<>>", "not an element id or label"),
        ("SCROLL", "SCROLL takes down or up"),
        ("scroll [left]", "SCROLL takes down or up"),
    ],
)
def test_garbage_is_refused_with_a_message(text, message):
    with pytest.raises(ActionError, match=re.escape(message)):
        parse_action(text)


def test_action_set_is_described_for_prompts():
    text = describe_actions()
    for spec in ACTION_SET:
        assert spec.description in text
    assert 'TYPE <id> "<text>"' in text and "stop [<answer>]" in text and "SCROLL down" in text


def test_actions_print_in_the_grammar_they_parse_from():
    for text in ('TYPE 6 "JFK"', "CLICK 6", "CLEAR 6", "SCROLL up", "STOP [yes]"):
        assert str(parse_action(text)) == text
        assert parse_action(str(parse_action(text))) == parse_action(text)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("CLICK_AT 640 312", Action("click_at", point=(640, 312))),
        ("click_at [640] [312.5]", Action("click_at", point=(640, 312.5))),
        ("click_at(640, 312)", Action("click_at", point=(640, 312))),
        ("move_to 10 20", Action("move_to", point=(10, 20))),
        ("SCROLL 0 -400", Action("scroll", point=(0, -400))),
        ('type_text "New York"', Action("type_text", value="New York")),
        ("TYPE_TEXT [JFK]", Action("type_text", value="JFK")),
        ("type_text JFK airport", Action("type_text", value="JFK airport")),
        ("press Enter", Action("press", value="Enter")),
        ("PRESS esc", Action("press", value="Escape")),
        ("press [down]", Action("press", value="ArrowDown")),
        ('press("Tab")', Action("press", value="Tab")),
        ("press ctrl+A", Action("press", value="Control+a")),
        ("press Shift+Tab", Action("press", value="Shift+Tab")),
    ],
)
def test_every_spelling_of_the_actions_by_position_parses(text, expected):
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("click_at 640", "expected CLICK_AT <x> <y> (two numbers)"),
        ("scroll 400", "expected SCROLL <dx> <dy>"),
        ("scroll sideways", "SCROLL takes down or up"),
        ("move_to [a] [b]", "expected MOVE_TO <x> <y>"),
        ("type_text", 'expected TYPE_TEXT "text"'),
        ("press F13", "'F13' is not a key"),
        ("press Hyper+a", "'Hyper+a' is not a key"),
    ],
)
def test_bad_actions_by_position_are_refused_with_a_message(text, message):
    with pytest.raises(ActionError, match=re.escape(message)):
        parse_action(text)


def test_actions_by_position_print_in_the_grammar_and_are_described_apart():
    for text in ("CLICK_AT 640 312.5", 'TYPE_TEXT "JFK"', "PRESS Control+a", "SCROLL 0 -400", "MOVE_TO 3 4"):
        assert str(parse_action(text)) == text
    assert "CLICK_AT <x> <y>" not in describe_actions()  # text agents are not offered them
    assert all(spec.description in describe_actions(coordinates=True) for spec in COORDINATE_ACTIONS + ACTION_SET)


@pytest.mark.parametrize("value", ['say "hi"', "O'Brien", "plain", 'both " and \'', '"quoted"'])
def test_typed_text_with_quotes_prints_in_a_form_that_parses_back(value):
    for action in (Action("type", 6, value), Action("type_text", None, value)):
        assert parse_action(str(action)) == action, str(action)
