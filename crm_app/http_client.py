"""A JSON client for a running CRM server, standard library only.

`http_sender(url)` gives `send(method, path, body) -> (status, JSON body)` for any route; error
statuses come back as values, an unreachable server raises urllib.error.URLError. The server is
local or named explicitly, so proxies from the environment are never used.
"""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable

Send = Callable[[str, str, dict | None], tuple[int, dict]]  # (method, path, body) -> (status, JSON)

_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_sender(base_url: str, timeout: float = 30, headers: dict | None = None) -> Send:
    """`headers` go with every request (say, X-Operator-Token); `send(..., headers={...})` adds more
    to one request (say, an Idempotency-Key)."""
    sent = {"Content-Type": "application/json", **(headers or {})}

    def send(method: str, path: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base_url.rstrip("/") + path, data=data, method=method,
                                         headers={**sent, **(headers or {})})
        try:
            with _OPENER.open(request, timeout=timeout) as response:
                return response.status, _json(response.read())
        except urllib.error.HTTPError as error:
            return error.code, _json(error.read())
    return send


def _json(raw: bytes) -> dict:
    """The body as JSON; a body that is not JSON (say, a proxy's HTML page) as an error message."""
    try:
        return json.loads(raw or b"{}")
    except ValueError:
        return {"error": raw.decode("utf-8", "replace")[:300]}
