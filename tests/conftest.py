"""Shared fixtures: an app on a new database (a SQLite file, or PostgreSQL: see databases.py), a
live server, and headless Chromium pages."""
from __future__ import annotations

import os
import tempfile

import pytest
from playwright.sync_api import sync_playwright

from agent.env.browser import launch_chromium
from agent.experiment.backends import episode_worker
from crm_app.server import BackgroundServer
from scenarios.app import create_app

from .browser_hosts import BrowserHostPool
from .cpu_cost import pytest_runtest_protocol  # noqa: F401 (CRM_TEST_CPU_LOG: each test's CPU time)
from .databases import TestDatabases, dispose

TEST_CONFIG = {"SANDBOX_BOOKINGS": 5}
OPERATOR_TOKEN = "test-operator-token"
OPERATOR = {"X-Operator-Token": OPERATOR_TOKEN}

# Like a user who exported them: apps read the token from the environment, and so do the clients
# (the agent environment, `python -m agent run --server`); secrets files go to a temporary folder.
os.environ["CRM_OPERATOR_TOKEN"] = OPERATOR_TOKEN
_INSTANCE = tempfile.TemporaryDirectory(prefix="crm-instance-")  # removed when the test session ends
os.environ["CRM_INSTANCE_PATH"] = _INSTANCE.name
# The printed tables are laid out for the terminal's width (agent/results/table.py): 120, whatever
# terminal runs the tests (a test of another width sets its own).
os.environ["COLUMNS"] = "120"


def pytest_addoption(parser):
    parser.addoption("--only-database-tests", action="store_true",
                     help="leave out the tests that use no database of the tests' (CRM_TEST_DATABASE does not "
                          "reach them: they would run as they do on SQLite); make test's PostgreSQL pass")


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--only-database-tests"):
        return
    uses_one = {item: "databases" in getattr(item, "fixturenames", ()) for item in items}
    if not all(uses_one.values()):
        config.hook.pytest_deselected(items=[item for item in items if not uses_one[item]])
        items[:] = [item for item in items if uses_one[item]]


@pytest.fixture(scope="session")
def databases():
    """Where new databases come from (CRM_TEST_DATABASE); a PostgreSQL server started for them
    is stopped at the end of the session."""
    made = TestDatabases()
    yield made
    made.close()


@pytest.fixture
def database_url(databases, tmp_path) -> str:
    """A new, empty database for one test."""
    return databases.new(tmp_path)


@pytest.fixture(scope="session")
def seeded_database(databases, tmp_path_factory) -> str:
    """A database with the schema and base data an app of TEST_CONFIG writes at its start, made once
    and closed: each test's `app` starts on a copy of it (init_db then finds its data and keeps it;
    on PostgreSQL the copy is a new schema filled inside the server: see TestDatabases.copy)."""
    folder = tmp_path_factory.mktemp("seeded")
    url = databases.new(folder)
    dispose(create_app({**TEST_CONFIG, "DATABASE_URL": url, "INSTANCE_PATH": str(folder / "instance")}))
    return url


@pytest.fixture
def app(databases, seeded_database, tmp_path):
    """A fresh app on its own database, like flaskr's test fixture."""
    url = databases.copy(seeded_database, tmp_path)
    app = create_app({**TEST_CONFIG, "DATABASE_URL": url, "INSTANCE_PATH": str(tmp_path / "instance")})
    yield app
    dispose(app)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def live_app(databases, tmp_path_factory):
    folder = tmp_path_factory.mktemp("live")
    return create_app({**TEST_CONFIG, "DATABASE_URL": databases.new(folder), "INSTANCE_PATH": str(folder / "instance")})


@pytest.fixture(scope="session")
def live_server(live_app):
    """Base URL of a server shared by the browser tests (each test makes its own data)."""
    with BackgroundServer(live_app) as server:
        yield server.url


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session", autouse=True)
def browser_hosts():
    """The episode runs a test starts share this process's browsers (browser_hosts.py)."""
    pool = BrowserHostPool()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(episode_worker, "BrowserHost", pool.take)
        yield pool
    pool.close()


@pytest.fixture
def page(browser):
    """A page in its own context, under the app's Content-Security-Policy (never bypassed): a test
    fails when the page did anything the policy blocks."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    blocked = []
    page.on("console", lambda m: "Content Security Policy" in m.text and blocked.append(m.text))
    yield page
    context.close()
    assert not blocked, f"the page broke its Content-Security-Policy: {blocked}"
