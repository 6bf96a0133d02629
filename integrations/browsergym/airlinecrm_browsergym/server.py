"""Which CRM the tasks use: the one at AIRLINECRM_URL, or one embedded in this process.

The embedded server is started on first use, on a temporary SQLite file, and stopped (its file
removed) when the process exits; every task of the process shares it.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import threading

from agent.crm.client import TOKEN_VARIABLE, URL_VARIABLE
from scenarios.app import embedded_server

_lock = threading.Lock()
_embedded = None  # (url, token) of the embedded server once it runs


def crm_server(url: str | None = None, operator_token: str | None = None) -> tuple[str, str | None]:
    """(base URL, operator token or None) of the CRM to use: `url`, else AIRLINECRM_URL with
    `operator_token` or CRM_OPERATOR_TOKEN, else the embedded server and its own token."""
    url = url or os.environ.get(URL_VARIABLE)
    if url:
        return url.rstrip("/"), operator_token or os.environ.get(TOKEN_VARIABLE)
    return _embedded_server()


def _embedded_server() -> tuple[str, str | None]:
    global _embedded
    with _lock:
        if _embedded is None:
            stack = contextlib.ExitStack()
            server = stack.enter_context(embedded_server())
            atexit.register(stack.close)
            # The server's operator token, where the app keeps it (None: the server has none).
            _embedded = server.url, server.app.config.get("OPERATOR_TOKEN")
        return _embedded
