"""The JSON API the UI uses for everything it does."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from ..services.dates import Calendar
from ..services.errors import DomainError, InvalidInput

api = Blueprint("api", __name__, url_prefix="/api")


def json_body() -> dict:
    """The request's JSON object, or a 400 that says what is wrong with it."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise InvalidInput("The request body must be a JSON object")
    return body


def calendar() -> Calendar:
    return current_app.extensions["calendar"]


def world_seed() -> int:
    return current_app.config["DATA_SEED"]


def register_error_handlers(app) -> None:
    """Every error leaves as JSON with a readable message; bad input never becomes a 500."""

    @app.errorhandler(DomainError)
    def domain_error(error: DomainError):
        return jsonify(error.as_json()), error.status

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        return jsonify({"error": error.description or error.name}), error.code

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception):
        current_app.logger.exception("Unexpected error")
        return jsonify({"error": "Something went wrong on the server"}), 500


from . import airports, bookings, config, flights  # noqa: E402,F401  (routes register on `api`)
