"""What a request may carry: a bounded body, JSON that is a plain object of valid text, and a
path and query free of characters no column can store. Anything else is a 4xx with a reason,
before a route or the database sees it."""
from __future__ import annotations

import json
import re

from flask import Flask, g, request
from werkzeug.exceptions import RequestEntityTooLarge

from .services.errors import InvalidInput

MAX_BODY_BYTES = 64 * 1024  # answered with 413; the largest real body (a booking) is under 1 KB
MAX_DEPTH = 16  # levels of nested objects and arrays in a JSON body; a booking uses 2
# Lone UTF-16 surrogates cannot be encoded to UTF-8 for storage; NUL ends strings in C and
# PostgreSQL refuses it in text.
FORBIDDEN = re.compile("[\x00\ud800-\udfff]")
FORBIDDEN_MESSAGE = "contains a character that is not allowed (NUL or a lone surrogate)"


def json_body() -> dict:
    """The request's JSON object, or a 400 that says what is wrong with it. Read once per
    request: later calls, and `checked_body`, get the same object."""
    if "json_body" not in g:
        g.json_body = _read_json_body()
    return g.json_body


def checked_body() -> dict | None:
    """The body as the route read it with `json_body`; None when the route did not (or refused it)."""
    return g.get("json_body")


def _read_json_body() -> dict:
    if not request.is_json:
        raise InvalidInput("The request body must be a JSON object (Content-Type: application/json)")
    try:
        body = json.loads(request.get_data(cache=True))
    except RecursionError:
        raise InvalidInput(f"The request body is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError:
        raise InvalidInput("The request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise InvalidInput("The request body must be a JSON object")
    check_json(body)
    return body


def check_json(body) -> None:
    """Refuse nesting deeper than MAX_DEPTH and text that cannot be stored, naming where it is."""
    pending = [(body, "body", 1)]
    while pending:
        value, where, depth = pending.pop()
        if isinstance(value, (dict, list)) and depth > MAX_DEPTH:
            raise InvalidInput(f"The request body is nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                if FORBIDDEN.search(key):
                    raise InvalidInput(f"A field name in the request body {FORBIDDEN_MESSAGE}")
                pending.append((item, key if where == "body" else f"{where}.{key}", depth + 1))
        elif isinstance(value, list):
            pending.extend((item, f"{where}[{index}]", depth + 1) for index, item in enumerate(value))
        elif isinstance(value, str) and FORBIDDEN.search(value):
            raise InvalidInput(f"{where} {FORBIDDEN_MESSAGE}", {where: f"This field {FORBIDDEN_MESSAGE}"})


def check_request() -> None:
    """Before every request: a body within the limit (run.py's server reads a chunked body first
    and gives it its length; elsewhere one sent without a length is cut at the limit when read),
    and a path and query parameters of storable text only."""
    if request.content_length is not None and request.content_length > request.max_content_length:
        raise RequestEntityTooLarge()
    if FORBIDDEN.search(request.path):
        raise InvalidInput(f"The path {FORBIDDEN_MESSAGE}")
    for name, value in request.args.items(multi=True):
        if FORBIDDEN.search(name) or FORBIDDEN.search(value):
            raise InvalidInput(f"Query parameter {name!r} {FORBIDDEN_MESSAGE}")


def install(app: Flask) -> None:
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default: no limit
        app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.before_request(check_request)
