"""The JSON API the UI uses for everything it does."""
from __future__ import annotations

from flask import current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from ..request_guard import json_body  # noqa: F401  (the routes' one way to read a body)
from ..services.errors import DomainError
from .blueprint import api


def http_message(error: HTTPException) -> str:
    """A short message in the API's style for errors the framework raises; a description given
    where the error was raised (abort(403, description=...)) is kept."""
    if error.description and error.description != type(error).description:
        return error.description
    if error.code == 404:
        return f"Nothing here: {request.path[:200]}"
    if error.code == 405:
        return f"{request.method} is not allowed on {request.path[:200]}"
    if error.code == 413:
        return f"The request body is larger than {current_app.config['MAX_CONTENT_LENGTH']} bytes"
    return error.name


def register_error_handlers(app) -> None:
    """Every error leaves as JSON with a readable message; bad input never becomes a 500."""

    @app.errorhandler(DomainError)
    def domain_error(error: DomainError):
        return jsonify(error.as_json()), error.status

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        response = jsonify({"error": http_message(error)})
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value  # e.g. Allow on a 405
        return response, error.code

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception):
        current_app.logger.exception("Unexpected error")
        return jsonify({"error": "Something went wrong on the server"}), 500


from . import airports, bookings, config, flights, knowledge_base, policy  # noqa: E402,F401  (routes register on `api`)
