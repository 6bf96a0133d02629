"""The element-list observation on small static pages: what an agent reads."""
import math
import re

import pytest

from agent.env.observation import count_tokens, format_element, observe, parse_line, parse_observation

pytestmark = pytest.mark.browser

FORM = """
<nav><a href="#home">Home</a> <a href="#help">Help</a></nav>
<h1>Find flights</h1>
<fieldset><legend>Trip type</legend>
  <label><input type=radio name=trip checked> Return</label>
  <label><input type=radio name=trip> One way</label>
</fieldset>
<label for=from>From</label><input id=from value="JFK">
<label for=to>To</label><input id=to placeholder="City or airport code">
<label for=title>Title</label>
<select id=title><option value="">Choose…</option><option>Mr</option><option selected>Dr</option></select>
<input type=checkbox id=news checked><label for=news>Send news</label>
<button aria-label="Open calendar for Departure date"><span aria-hidden=true>📅</span></button>
<div hidden><button>Hidden button</button></div>
<div style="display:none">Invisible text</div>
<div aria-hidden=true>Decoration</div>
<table>
  <tr><th>Depart</th><th>Flight</th><th>Price</th></tr>
  <tr><td>7:01pm</td><td>CR1234</td><td>$172.55</td><td><button>Select</button></td></tr>
</table>
<button disabled>Checkout</button>
<p>Total <strong>$412.30</strong></p>
"""


def lines_of(page):
    return observe(page).text.splitlines()


def test_form_reads_as_labelled_elements_in_reading_order(page):
    page.set_content(FORM)
    obs = observe(page)
    without_ids = [re.sub(r" id=\d+", "", line) for line in obs.text.splitlines()]
    assert without_ids == [
        "<link>Home</link>",
        "<link>Help</link>",
        "<text>Find flights</text>",
        "<text>Trip type</text>",
        "<radio Return checked/>",
        "<radio One way/>",
        '<input text From value="JFK"/>',
        '<input text To hint="City or airport code"/>',
        '<select Title value="Dr" options="Mr|Dr"/>',
        "<checkbox Send news checked/>",
        "<button>Open calendar for Departure date</button>",
        "<text>Depart Flight Price</text>",
        "<text>7:01pm CR1234 $172.55</text>",
        "<button>Select</button>",
        "<button disabled>Checkout</button>",
        "<text>Total $412.30</text>",
    ]
    assert "Hidden" not in obs.text and "Invisible" not in obs.text and "Decoration" not in obs.text


def test_every_line_has_a_distinct_integer_id(page):
    page.set_content(FORM)
    items = parse_observation(observe(page).text)
    ids = [item["id"] for item in items]
    assert len(items) == 16 and len(set(ids)) == len(ids)
    assert all(isinstance(i, int) for i in ids)


def test_ids_stay_while_elements_live_and_new_elements_get_new_ids(page):
    page.set_content('<button id=a>Search</button><div id=box></div>')
    first = {item["name"]: item["id"] for item in parse_observation(observe(page).text)}
    page.evaluate("""() => {
        document.getElementById('box').innerHTML = '<button>Added</button>';
        document.body.insertBefore(document.createElement('hr'), document.body.firstChild);
    }""")
    second = {item["name"]: item["id"] for item in parse_observation(observe(page).text)}
    assert second["Search"] == first["Search"]
    assert second["Added"] not in first.values()


def test_values_typed_later_are_shown(page):
    page.set_content('<label for=f>From</label><input id=f>')
    page.fill("#f", 'O"Hare')
    assert lines_of(page)[0].endswith('From value="O\\"Hare"/>')
    assert parse_observation(observe(page).text)[0]["value"] == 'O"Hare'


def test_open_modal_dialog_is_all_that_is_observed(page):
    page.set_content("""<button>Behind</button>
        <dialog><h2>Cancel booking</h2><label for=c>Confirmation code</label><input id=c>
        <button>Close</button></dialog>""")
    page.evaluate("document.querySelector('dialog').showModal()")
    text = observe(page).text
    assert "Behind" not in text
    assert "Cancel booking" in text and "Confirmation code" in text and ">Close</button>" in text


def test_error_of_the_last_action_comes_first(page):
    page.set_content("<button>Save</button>")
    obs = observe(page, error="CLICK 99 failed: There is no element with id 99 on the page.")
    assert obs.text.splitlines()[0] == "ERROR: CLICK 99 failed: There is no element with id 99 on the page."
    assert obs.text.splitlines()[1].endswith(">Save</button>")


def test_token_count_is_characters_over_four(page):
    page.set_content(FORM)
    obs = observe(page)
    assert obs.tokens == count_tokens(obs.text) == math.ceil(len(obs.text) / 4)


@pytest.mark.parametrize(
    "item",
    [
        {"id": 6, "kind": "input", "type": "text", "name": "From", "value": 'say "hi"'},
        {"id": 7, "kind": "select", "name": "Title", "value": "Mr", "options": ["Mr", "Dr"]},
        {"id": 8, "kind": "radio", "name": "One way", "checked": True},
        {"id": 11, "kind": "radio", "name": "", "checked": True},
        {"id": 9, "kind": "button", "name": "Checkout", "disabled": True},
        {"id": 10, "kind": "text", "name": "7:01pm JFK $172.55"},
    ],
)
def test_lines_read_back_to_what_was_written(item):
    parsed = parse_line(format_element(item))
    for key, value in item.items():
        assert parsed[key] == value


def test_a_row_picked_by_its_one_radio_reads_as_that_radio(page):
    page.set_content("""<table>
        <tr><th></th><th>Depart</th><th>Price</th></tr>
        <tr><td><label><input type=radio name=f aria-label="Select CR1"> Select</label></td>
            <td>7:01pm</td><td>$172.55</td></tr>
        <tr><td><input type=radio name=f checked></td><td>9:15pm</td><td>$99.00</td>
            <td><button>Details</button></td></tr></table>""")
    lines = [re.sub(r" id=\d+", "", line) for line in lines_of(page)]
    assert lines == [
        "<text>Depart Price</text>",
        "<radio Select 7:01pm $172.55/>",
        "<radio checked/>",  # a second control in the row: the row text stays separate
        "<text>9:15pm $99.00</text>",
        "<button>Details</button>",
    ]


def test_terms_and_descriptions_read_as_one_line(page):
    page.set_content("<dl><dt>Name</dt><dd>Mr Bill Correa</dd><dt>Gender</dt><dd>Male</dd></dl>")
    assert [re.sub(r" id=\d+", "", line) for line in lines_of(page)] == [
        "<text>Name: Mr Bill Correa</text>", "<text>Gender: Male</text>"]
