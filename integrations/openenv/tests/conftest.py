"""One CRM (the package's own start: `airlinecrm serve` in its own process) and one OpenEnv server
(`python -m airlinecrm_openenv.server --server ...`) for the whole run, driven by OpenEnv's clients."""
from __future__ import annotations

import pytest

from airlinecrm_openenv import crm, server
from airlinecrm_openenv.crm import Crm


@pytest.fixture(scope="session")
def the_crm() -> Crm:
    return crm.start()


@pytest.fixture(scope="session")
def openenv_url(the_crm):
    with server.background(the_crm) as running:
        yield running.url
