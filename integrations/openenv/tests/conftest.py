"""One CRM (the package's own start: `airlinecrm serve` in its own process) and one OpenEnv server
(`python -m airlinecrm_openenv.server --server ...`) for the whole run, driven by OpenEnv's clients."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from airlinecrm_openenv import crm
from airlinecrm_openenv.crm import Crm
from openenv_helpers import wait_healthy


@pytest.fixture(scope="session")
def the_crm() -> Crm:
    return crm.start()


@pytest.fixture(scope="session")
def openenv_url(the_crm):
    port = crm._free_port()
    process = subprocess.Popen([sys.executable, "-m", "airlinecrm_openenv.server", "--port", str(port),
                                "--server", the_crm.url], env={k: v for k, v in os.environ.items()
                                                                if k not in ("AIRLINECRM_URL", "CRM_OPERATOR_TOKEN")},
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
