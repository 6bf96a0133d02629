"""Serving the app on a background thread, for tests and agents (Werkzeug's threaded server); run.py
serves with gunicorn instead (production_server.py), answering errors the same way."""
from __future__ import annotations

import contextlib
import json
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from flask import Flask
from werkzeug.serving import WSGIRequestHandler, make_server

from .security_headers import SECURITY_HEADERS

# The limits of the standard library's HTTP server, which both servers keep (see production_server.py).
MAX_REQUEST_LINE_BYTES = 65536 - 2  # without its CRLF
MAX_HEADER_BYTES = 65536  # one header line, with its CRLF
MAX_HEADERS = 100
SERVER_MESSAGES = {414: "The request line is longer than 65536 bytes",
                   431: f"A request header is longer than {MAX_HEADER_BYTES} bytes, or there are more than {MAX_HEADERS}"}


class JsonErrorRequestHandler(WSGIRequestHandler):
    """Errors that the HTTP server answers before the app sees the request (a request line over
    64 KB, a header line too long, a malformed request line) in the API's JSON error shape
    instead of the standard library's HTML page."""

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        text = SERVER_MESSAGES.get(code) or message or self.responses.get(code, ("Error",))[0]
        self.log_error("code %d, message %s", code, text)
        self.send_response(code, self.responses.get(code, ("Error",))[0])
        self.send_header("Connection", "close")
        body = b""
        if code >= 200 and code not in (204, 205, 304):
            body = json.dumps({"error": text}).encode()
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in SECURITY_HEADERS.items():
                self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)


class QuietRequestHandler(JsonErrorRequestHandler):
    """No access log: tests and agent runs make thousands of requests."""

    def log_request(self, *args, **kwargs) -> None:
        pass


class BackgroundServer:
    """A threaded WSGI server on its own thread; `url` is where it answers."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0):
        self.app = app
        self._server = make_server(host, port, app, threaded=True, request_handler=QuietRequestHandler)
        self.url = f"http://{host}:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="crm-server", daemon=True)

    def start(self) -> BackgroundServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


@contextlib.contextmanager
def embedded_server(database_url: str | None = None, settings: dict | None = None, *,
                    app_factory: Callable[[dict], Flask]):
    """A server on a background thread of the app `app_factory` makes, on the given database or a
    temporary SQLite file that is removed afterwards. `settings` go to the factory on top of the
    database's. The factory is the caller's to give: agents and task packages want the full app
    (scenarios.app.embedded_server gives it)."""
    with tempfile.TemporaryDirectory(prefix="airlinecrm-") as folder:
        # A temporary database keeps its secrets (operator token, card key) in the same folder.
        config = {"DATABASE_URL": database_url} if database_url else {
            "DATABASE_URL": f"sqlite:///{Path(folder) / 'crm.db'}", "INSTANCE_PATH": folder}
        app = app_factory({**config, **(settings or {})})
        with BackgroundServer(app) as server:
            yield server

