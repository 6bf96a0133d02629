"""The pages of the UI variants (crm_app/ui_variants): every pair of variants shows the search page
in other words and with other ids and test ids; outside variant 0 no id, test id, field or group
name gives away what a control is; every control keeps a label; the page's scripts get the table
of names back."""
import itertools
import json
import re
from pathlib import Path

import pytest

from crm_app.ui_variants import VARIANTS
from crm_app.ui_variants.names import renamed_class
from crm_app.ui_variants.wording import words
from scenarios.targets import TARGETS

ROOT = Path(__file__).resolve().parents[2]
NAMED = re.compile(r'\s(id|data-testid|data-field|name|for|aria-controls|aria-labelledby|aria-describedby|'
                   r'data-calendar-for|data-opens-at)="([^"]*)"')


def page_in(client, number: int, suite: str = "hard", task: str = "TASK_POLICY_CHANGE") -> str:
    made = client.get(f"/generate-random-scenario?task={task}&seed=4&suite={suite}&ui_variant={number}").json
    return client.get(f"/?scenario={made['id']}").get_data(as_text=True)


def search_section(html: str) -> str:
    start = html.index("<section data-screen=\"search\"")
    return html[start:html.index("</section>", start)]


def visible_labels(section: str) -> set[str]:
    texts = re.findall(r"<(?:label|legend|button|h1)[^>]*>([^<]+)<", section)
    return {text.strip() for text in texts if text.strip()}


def identifiers(section: str) -> set[str]:
    return {value for attribute, value in NAMED.findall(section) if attribute in ("id", "data-testid")}


@pytest.fixture
def pages(client):
    return {variant.number: page_in(client, variant.number) for variant in VARIANTS}


def test_every_pair_of_variants_differs_in_labels_and_in_ids(pages):
    searches = {number: search_section(html) for number, html in pages.items()}
    for one, other in itertools.combinations(searches, 2):
        assert visible_labels(searches[one]) != visible_labels(searches[other]), (one, other)
        assert not identifiers(searches[one]) & identifiers(searches[other]), (one, other)
        assert words(one)["search-from"] in searches[one] and words(other)["search-from"] not in \
            visible_labels(searches[one]), (one, other)


def test_outside_variant_0_no_identifier_names_a_control(pages):
    semantic = set(TARGETS) | {"search-heading", "datepicker", "scenario-banner"}
    for number, html in pages.items():
        values = {token for _, value in NAMED.findall(html) for token in value.split()}
        leaked = {value for value in values if any(name in value for name in semantic)}
        if number == 0:
            assert {"search-from", "nav-home", "checkout", "passenger-title-error"} <= values
        else:
            assert not leaked, (number, sorted(leaked)[:5])


def test_every_control_has_a_label_in_every_variant(pages):
    for number, html in pages.items():
        for control in re.findall(r"<(?:input|select)\b[^>]*>", html):
            assert re.search(r'aria-label="[^"]+"', control), (number, control)
        ids = set(re.findall(r'\sid="([^"]+)"', html))
        assert set(re.findall(r'<label for="([^"]+)"', html)) <= ids, number
        described = {token for value in re.findall(r'aria-describedby="([^"]+)"', html) for token in value.split()}
        assert described <= ids, number


def test_the_scripts_get_the_names_back(pages):
    for number, html in pages.items():
        found = re.search(r'<script type="application/json" data-ui-page>(.*?)</script>', html)
        if number == 0:
            assert found is None
            continue
        table = json.loads(found.group(1))
        names = set(table["names"].values())
        assert {"search-from", "checkout", "passenger-title", "outward-flight", "datepicker-day"} <= names
        assert all(token in html for token, name in table["names"].items() if name == "search-from")
        assert table["words"]["outward-flight"] == words(number)["outward-flight"]


def test_a_variants_widgets_are_as_described(pages):
    described = {variant.number: variant for variant in VARIANTS}
    for number, html in pages.items():
        variant = described[number]
        passenger = html[html.index('data-form="passenger"'):html.index('data-screen="payment"')]
        title = words(number)["passenger-title"]
        if variant.choices in ("radio", "segmented"):
            assert f"<legend>{title}</legend>" in passenger
            assert (renamed_class(number, "segmented") in passenger) == (variant.choices == "segmented")
        elif number:
            assert f'<select id=' in passenger and f">{title}</label>" in passenger
        assert ("data-step-two" in passenger) == variant.passenger_steps, number
        search = search_section(html)
        assert ('role="combobox"' in search) == (variant.airports == "autocomplete"), number
        assert ('<optgroup label="New York">' in search) == (variant.airports == "grouped"), number
        assert ('placeholder="e.g. JFK"' in search) == (variant.airports == "code"), number
        assert ('placeholder="YYYY-MM-DD"' in search) == (variant.dates == "typed"), number
        assert ('data-part="month"' in search) == (variant.dates == "selects"), number
        assert ("Open calendar" in search) == (variant.dates == "calendar"), number


def test_the_fields_come_in_the_variants_order(pages):
    for variant in VARIANTS:
        passenger = pages[variant.number][pages[variant.number].index('data-form="passenger"'):]
        said = words(variant.number)
        positions = [passenger.index(f">{said['passenger-' + field]}<") for field in variant.passenger_order]
        assert positions == sorted(positions), variant.number


def test_outside_variant_0_classes_are_tokens_and_the_style_sheet_follows_them(client, pages):
    plain_css = re.sub(r"/\*.*?\*/", "", client.get("/static/style.css").get_data(as_text=True), flags=re.S)
    for number, html in pages.items():
        classes = {name for value in re.findall(r'\sclass="([^"]*)"', html) for name in value.split()}
        if number == 0:
            assert {"card", "primary", "field-error", "topbar"} <= classes and "/static/style.css" in html
            continue
        assert all(re.fullmatch(r"k[0-9a-f]{8}", name) for name in classes), number
        answer = client.get(f"/ui-variant/{number}/style.css")
        assert answer.status_code == 200 and answer.mimetype == "text/css"
        css = answer.get_data(as_text=True)
        assert f'href="/ui-variant/{number}/style.css"' in html
        assert f"button.{renamed_class(number, 'primary')} {{" in css and "button.primary" not in css
        styled = set(re.findall(r"\.([a-z][\w-]*)[^{}]*\{", plain_css))  # the classes of variant 0's rules
        assert {f".{renamed_class(number, name)}" for name in styled} <= set(re.findall(r"\.k[0-9a-f]{8}", css))
        assert css.count("{") == plain_css.count("{")


@pytest.mark.parametrize("number", [0, len(VARIANTS), 99])
def test_a_style_sheet_of_no_variant_is_a_404(client, number):
    assert client.get(f"/ui-variant/{number}/style.css").status_code == 404


def static_scripts() -> str:
    return "\n".join(path.read_text() for path in sorted((ROOT / "static").rglob("*.js")))


def test_every_name_and_class_the_scripts_use_is_in_a_variants_tables(client, pages):
    """A name or class the scripts look up but the page's JSON does not carry would stay plain in a
    variant and find nothing: each one the scripts write literally is in the tables."""
    tables = [json.loads(re.search(r"<script type=\"application/json\" data-ui-page>(.*?)</script>", html).group(1))
              for html in (pages[3], page_in(client, 3, "expert", "EXPERT_QUESTION_STATUS"))]  # the hard and expert looks
    table = {part: {key: value for found in tables for key, value in found[part].items()} for part in ("names", "classes")}
    scripts = static_scripts()
    names = set(re.findall(r'(?:tid|byTestid)\("([a-z0-9-]+)"\)', scripts))
    errors = {f"{name}-error" for name in re.findall(r'show(?:Api|Form)Error\([^,]+, "([a-z-]+)"', scripts)}
    classes = set(re.findall(r'(?:cls|byClass)\("([a-z0-9-]+)"\)', scripts))
    classes |= set(re.findall(r'cls\([^)]*\? "([a-z-]+)" : "([a-z-]+)"\)', scripts)[0])
    assert names and classes
    assert names | errors <= set(table["names"].values()), sorted((names | errors) - set(table["names"].values()))
    assert classes <= set(table["classes"]), sorted(classes - set(table["classes"]))
