"""Serving the app: in the foreground for run.py, or on a background thread for tests and agents."""
from __future__ import annotations

import contextlib
import tempfile
import threading
from pathlib import Path

from flask import Flask
from werkzeug.serving import WSGIRequestHandler, make_server


class QuietRequestHandler(WSGIRequestHandler):
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
def embedded_server(database_url: str | None = None):
    """A server on a background thread, on the given database or a temporary SQLite file that is
    removed afterwards: what agents and task packages use when no server is given."""
    from . import create_app

    with tempfile.TemporaryDirectory(prefix="airlinecrm-") as folder:
        app = create_app({"DATABASE_URL": database_url or f"sqlite:///{Path(folder) / 'crm.db'}"})
        with BackgroundServer(app) as server:
            yield server


def serve_forever(app: Flask, host: str, port: int) -> None:
    server = make_server(host, port, app, threaded=True)
    print(f"AirlineCRM is serving at http://{host}:{server.server_port}/  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
