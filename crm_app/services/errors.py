"""Errors a service raises for input a person got wrong; the API turns them into 4xx JSON."""
from __future__ import annotations


def excerpt(text: str, limit: int = 40) -> str:
    """What a person typed, as a message quotes it: cut when it is long."""
    return text if len(text) <= limit else text[:limit] + "…"


class DomainError(Exception):
    status = 400

    def __init__(self, message: str, fields: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.fields = fields or {}

    def as_json(self) -> dict:
        body = {"error": self.message}
        if self.fields:
            body["fields"] = self.fields
        return body


class InvalidInput(DomainError):
    status = 400


class NotFound(DomainError):
    status = 404


class Conflict(DomainError):
    status = 409


def form_error(errors: dict[str, str], labels: dict[str, str]) -> InvalidInput:
    """One error for a form with wrong fields: every field keeps its own message; the summary is
    that message when only one field is wrong, else the labels of all of them."""
    if len(errors) == 1:
        return InvalidInput(next(iter(errors.values())), errors)
    return InvalidInput("Please correct: " + ", ".join(labels.get(f, f) for f in errors), errors)
