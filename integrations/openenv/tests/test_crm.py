"""The CRM server the package starts ends with the process that started it, however that ends."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from agent.crm.client import ScenarioClient, ServerError

STARTER = ("import sys\n"
           "from airlinecrm_openenv.crm import start\n"
           "print(start().url, flush=True)\n"
           "sys.stdin.read()\n")


def answers(url: str) -> bool:
    try:
        ScenarioClient(url, timeout=2).check()
        return True
    except (ServerError, OSError):  # refused, or reset while the server stops
        return False


@pytest.mark.parametrize("ending", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_starter_takes_its_crm_server_and_its_files_with_it(ending, tmp_path):
    starter = subprocess.Popen([sys.executable, "-c", STARTER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, env={**os.environ, "TMPDIR": str(tmp_path)})
    url = starter.stdout.readline().strip()
    assert answers(url) and list(tmp_path.glob("airlinecrm-openenv-*/crm.db"))
    os.kill(starter.pid, ending)
    starter.wait(timeout=20)
    deadline = time.monotonic() + 30
    while (answers(url) or list(tmp_path.iterdir())) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not answers(url)
    assert not list(tmp_path.iterdir())
