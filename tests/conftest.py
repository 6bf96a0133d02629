"""Shared fixtures: an app on a temporary SQLite file, a live server, and headless Chromium pages."""
from __future__ import annotations

import os
import tempfile

import pytest
from playwright.sync_api import sync_playwright

from agent.browser import launch_chromium
from crm_app import create_app
from crm_app.server import BackgroundServer

TEST_CONFIG = {"SANDBOX_BOOKINGS": 5}
OPERATOR_TOKEN = "test-operator-token"
OPERATOR = {"X-Operator-Token": OPERATOR_TOKEN}

# Like a user who exported them: apps read the token from the environment, and so do the clients
# (the agent environment, `python -m agent run --server`); secrets files go to a temporary folder.
os.environ["CRM_OPERATOR_TOKEN"] = OPERATOR_TOKEN
_INSTANCE = tempfile.TemporaryDirectory(prefix="crm-instance-")  # removed when the test session ends
os.environ["CRM_INSTANCE_PATH"] = _INSTANCE.name


@pytest.fixture
def app(tmp_path):
    """A fresh app on its own database file, like flaskr's test fixture."""
    return create_app({**TEST_CONFIG, "DATABASE_URL": f"sqlite:///{tmp_path / 'crm.db'}",
                       "INSTANCE_PATH": str(tmp_path / "instance")})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def live_app(tmp_path_factory):
    folder = tmp_path_factory.mktemp("live")
    return create_app({**TEST_CONFIG, "DATABASE_URL": f"sqlite:///{folder / 'crm.db'}",
                       "INSTANCE_PATH": str(folder / "instance")})


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
