"""The one CRM server all sessions share: an existing one (`--server`, else AIRLINECRM_URL, with
`--operator-token`, else CRM_OPERATOR_TOKEN), or else the CRM's own production server
(`airlinecrm serve`: gunicorn) started in a process of its own on a temporary SQLite file (or on
`--database`, e.g. PostgreSQL for many workers), stopped and removed when this process ends: by
atexit, and by its watcher (`watch.py`) when this process is killed."""
from __future__ import annotations

import atexit
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from agent.crm.client import TOKEN_VARIABLE, URL_VARIABLE, ScenarioClient, ServerError

START_TIMEOUT_S = 180.0


@dataclass(frozen=True)
class Crm:
    url: str
    operator_token: str | None


def find_or_start(url: str | None = None, operator_token: str | None = None, database: str | None = None,
                  workers: int = 1) -> Crm:
    url = url or os.environ.get(URL_VARIABLE)
    token = operator_token or os.environ.get(TOKEN_VARIABLE)
    if url:
        ScenarioClient(url, operator_token=token).check()  # a clear error now, not in every session
        return Crm(url.rstrip("/"), token)
    return start(database, workers)


def start(database: str | None = None, workers: int = 1) -> Crm:
    """`airlinecrm serve` on a free port, in its own process, with a new operator token."""
    folder = tempfile.mkdtemp(prefix="airlinecrm-openenv-")
    port, token = free_port(), secrets.token_urlsafe(24)
    serve = [sys.executable, "-m", "airlinecrm", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--workers", str(workers), "--instance", folder, "--db", database or f"sqlite:///{folder}/crm.db"]
    command = [sys.executable, "-m", "airlinecrm_openenv.watch", "--remove", folder, *serve]
    process = subprocess.Popen(command, env={**os.environ, TOKEN_VARIABLE: token}, stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    atexit.register(_stop, process, folder)
    url = f"http://127.0.0.1:{port}"
    _wait_for(url, process)
    return Crm(url, token)


def _wait_for(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the CRM server stopped at start: {process.stderr.read().decode()[-2000:]}")
        try:
            ScenarioClient(url, timeout=2).check()
            return
        except ServerError:
            time.sleep(0.2)
    raise RuntimeError(f"the CRM server at {url} did not answer within {START_TIMEOUT_S:.0f} s")


def _stop(process: subprocess.Popen, folder: str) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    shutil.rmtree(folder, ignore_errors=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
