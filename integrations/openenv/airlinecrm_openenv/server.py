"""The OpenEnv server: `python -m airlinecrm_openenv.server`, `airlinecrm-openenv` or `airlinecrm openenv`
(HTTP /reset /step /state /schema /mcp and the WebSocket /ws, by OpenEnv's create_app).

    python -m airlinecrm_openenv.server --port 8000                       # starts its own CRM
    python -m airlinecrm_openenv.server --server http://127.0.0.1:5000 --operator-token TOKEN

`app` is the ASGI app (`uvicorn airlinecrm_openenv.server:app`, openenv.yaml's); its CRM is the one
AIRLINECRM_URL names, else one it starts, at the first session.
"""
from __future__ import annotations

import argparse
import atexit
import contextlib
import os
import subprocess
import sys
import threading
import time
import urllib.request
from typing import NamedTuple

from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.mcp_types import CallToolAction

from agent.env.browser_host import BrowserHost

from .crm import Crm, free_port, find_or_start
from .environment import AirlineCrmEnvironment, CrmObservation, CrmState

ENV_NAME = "airlinecrm"
MAX_SESSIONS = 1024  # a GRPO batch of 64 prompts x 16 samples
DEFAULT_PORT = 8000


class CrmHolder:
    """The CRM the sessions share, found or started once, when the first session needs it; and the
    one Chromium of the browser mode's sessions, started when the first of them resets."""

    def __init__(self, **options):
        self.options, self._crm, self._lock = options, None, threading.Lock()
        self._browser_host: BrowserHost | None = None

    def get(self) -> Crm:
        with self._lock:
            if self._crm is None:
                self._crm = find_or_start(**self.options)
            return self._crm

    def browser_host(self) -> BrowserHost:
        with self._lock:
            if self._browser_host is None:
                self._browser_host = BrowserHost()
                atexit.register(self._browser_host.close)
            return self._browser_host

    def environment(self) -> AirlineCrmEnvironment:
        crm = self.get()
        return AirlineCrmEnvironment(crm.url, browser_host=self.browser_host)


def build_app(holder: CrmHolder, max_sessions: int = MAX_SESSIONS):
    return create_app(holder.environment, CallToolAction, CrmObservation, env_name=ENV_NAME,
                      max_concurrent_envs=max_sessions, state_cls=CrmState)


app = build_app(CrmHolder())


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    import uvicorn

    args = _parser(prog).parse_args(argv)
    holder = CrmHolder(url=args.server, operator_token=args.operator_token, database=args.database,
                       workers=args.crm_workers)
    crm = holder.get()  # at start: a CRM that cannot be had stops the server here, saying why
    print(f"AirlineCRM OpenEnv server on http://{args.host}:{args.port} (CRM: {crm.url})", flush=True)
    uvicorn.run(build_app(holder, args.max_sessions), host=args.host, port=args.port, log_level="warning",
                ws_max_size=16 * 1024 * 1024)
    return 0


class Running(NamedTuple):
    url: str
    pid: int


@contextlib.contextmanager
def background(crm: Crm, timeout: float = 600.0):
    """This server in a process of its own on a free port, working `crm`; yields its URL once it
    answers /health (importing OpenEnv's gradio takes minutes on a loaded machine), with its pid."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("AIRLINECRM_URL", "CRM_OPERATOR_TOKEN")}
    process = subprocess.Popen([sys.executable, "-m", "airlinecrm_openenv.server", "--port", str(port),
                                "--server", crm.url], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process, timeout)
        yield Running(url, process.pid)
    finally:
        process.terminate()
        process.wait(timeout=20)


def wait_healthy(url: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the OpenEnv server stopped at start: {process.stderr.read().decode()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the OpenEnv server at {url} did not answer /health within {timeout:.0f} s")


def _parser(prog: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Serve AirlineCRM as an OpenEnv environment.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--server", metavar="URL", help="a running CRM (default: AIRLINECRM_URL, else one is started)")
    parser.add_argument("--operator-token", help="its operator token (default: CRM_OPERATOR_TOKEN)")
    parser.add_argument("--database", metavar="URL", help="the started CRM's database (default: a temporary SQLite "
                                                          "file); postgresql+psycopg://... for many workers")
    parser.add_argument("--crm-workers", type=int, default=1, help="the started CRM's gunicorn workers")
    parser.add_argument("--max-sessions", type=int, default=MAX_SESSIONS, help="concurrent sessions at most")
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
