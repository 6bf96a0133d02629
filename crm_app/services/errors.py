"""Errors a service raises for input a person got wrong; the API turns them into 4xx JSON."""
from __future__ import annotations


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
