"""Scoring rules that are about the UI, worked through the real page in Chromium: a field left out
of the submit is not credited, card data typed into the page is not stored in the database, and a
select's type-ahead is one action."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from playwright.sync_api import expect

from crm_app.server import BackgroundServer
from scenarios.app import create_app
from tests.conftest import OPERATOR, TEST_CONFIG

from crm_app.models import Event

from .ui import book_in_ui, open_app, open_booking, region, us

pytestmark = pytest.mark.browser


@pytest.fixture
def own_server(tmp_path):
    """A server on its own database file, so that the file holds this test's data only."""
    database = tmp_path / "crm.db"
    app = create_app({**TEST_CONFIG, "DATABASE_URL": f"sqlite:///{database}", "INSTANCE_PATH": str(tmp_path / "instance")})
    with BackgroundServer(app) as server:
        yield app, server.url, database


def _scenario(page, own_server, task, seed):
    app, url, _ = own_server
    client = app.test_client()
    scenario = client.get(f"/generate-random-scenario?task={task}&seed={seed}").json
    open_app(page, url, f"?scenario={scenario['id']}")

    def evaluate():
        page.evaluate("window.crm.whenIdle()")
        return client.get(f"/evaluate?scenario={scenario['id']}", headers=OPERATOR).json

    return scenario, evaluate


def test_a_return_date_typed_before_choosing_one_way_is_not_credited(page, own_server):
    """Rule 1: Return date filled, then One way chosen, then Search: the return date was not searched."""
    scenario, evaluate = _scenario(page, own_server, "TASK_FIND_FLIGHT", 1)
    flight = scenario["details"]["flight"]  # a return trip
    home = region(page, "Find flights")
    for label, code in (("From", flight["from"]), ("To", flight["to"])):
        home.get_by_label(label, exact=True).fill(code)
        home.get_by_label(label, exact=True).press("Tab")
    home.get_by_label("Departure date", exact=True).fill(us(flight["departure"]))
    home.get_by_label("Return date", exact=True).fill(us(flight["return"]))
    home.get_by_label("Return date", exact=True).press("Tab")
    home.get_by_label("One way", exact=True).check()
    expect(home.get_by_label("Return date", exact=True)).to_be_disabled()
    page.get_by_role("button", name="Search flights").click()
    expect(page.get_by_role("heading", name="Select your departing flight")).to_be_visible()
    result = evaluate()
    assert [m["action"].split()[1] for m in result["metrics"]] == [
        "search-from", "search-to", "search-depart", "search-return", "trip-type", "search-submit"]
    assert result["matched"] == [True, True, True, False, True]
    assert (result["task_progress"], result["success"]) == (0.8, 0)
    assert result["state_check"]["reason"] == \
        f"the last flight search was not the one asked for: return was none, expected '{flight['return']}'"


def _recorded_events(app, scenario_id: str) -> list[dict]:
    with app.extensions["sessionmaker"]() as session:
        rows = session.query(Event).filter_by(scenario_id=scenario_id).order_by(Event.id).all()
        return [{"action": row.action, "target": row.target, "value": row.value} for row in rows]


def _sql_text(database: Path) -> str:
    """Every stored value of the database as SQL text (text cells quoted, JSON as written)."""
    connection = sqlite3.connect(database)
    try:
        return "\n".join(connection.iterdump())
    finally:
        connection.close()


def test_card_data_typed_in_the_ui_is_not_in_the_database_files(page, own_server):
    """Rule 6: book with a card through the UI, then search the database, its WAL and shared-memory
    files for the card number, and every stored value for the security code."""
    _app, _url, database = own_server
    scenario, evaluate = _scenario(page, own_server, "TASK_BOOK_FLIGHT", 7)
    card = scenario["details"]["payment-details"]
    number, code = card["card-number"], card["security_code"]
    book_in_ui(page, scenario["details"])
    result = evaluate()
    assert (result["success"], result["task_progress"]) == (1, 1.0)  # progress compared the hashes
    files = [path for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")) if path.exists()]
    assert len(files) == 3  # the WAL has not been checkpointed away: the test reads what was written
    spaced = " ".join(re.findall(".{1,4}", number))
    for path in files:
        raw = path.read_bytes()
        assert number.encode() not in raw and spaced.encode() not in raw, path
        assert not re.search(rb'security.code"\s*:\s*"' + code.encode() + rb'"', raw), path
    stored = _sql_text(database)
    assert number not in stored
    assert f"'{code}'" not in stored and f'"{code}"' not in stored  # as a text cell or a JSON string
    assert f"****{number[-4:]}:" in stored  # the events keep the last four digits and a keyed hash


def test_typing_ahead_in_a_select_is_one_action(page, own_server):
    """Rule 7: keyboard type-ahead in the Title select commits a value per keystroke ("m" Miss or
    Mr, "mr" Mr, "mrs" Mrs); those consecutive changes of one field are one action, so the gold
    path with the title typed counts 6 actions for 6 gold steps."""
    scenario, evaluate = _scenario(page, own_server, "TASK_UPDATE_PASSENGER_DETAILS", 5)
    assert scenario["details"]["passenger"] == {"title": "Mrs"}
    open_booking(page, scenario["details"]["confirmation-code"])
    page.get_by_role("button", name="Modify booking").click()
    details = page.get_by_role("form", name="Passenger details")
    title = details.get_by_label("Title")
    title.focus()
    page.keyboard.type("mrs", delay=50)
    expect(title).to_have_value("Mrs")
    details.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Passenger details saved")).to_be_visible()
    result = evaluate()
    recorded = _recorded_events(own_server[0], scenario["id"])
    assert [e["value"] for e in recorded if e["target"] == "modify-passenger-title"][-1] == "mrs"
    assert len([e for e in recorded if e["target"] == "modify-passenger-title"]) >= 2  # type-ahead fired per key
    assert (result["success"], result["task_progress"], result["num_actions"]) == (1, 1.0, 6)
    assert [m["action"] for m in result["metrics"]][4] == 'fill modify-passenger-title "mrs"'
