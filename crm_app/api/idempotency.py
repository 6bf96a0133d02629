"""Writes that happen once: the Idempotency-Key header of the write routes.

The first request with a key runs in one transaction that also stores the key and the answer.
A later request with the same key and the same method, path and body gets that answer again
(with `Idempotent-Replayed: true`) and writes nothing; with anything else, 409. Keys are scoped
to the dataset (the sandbox or a scenario). Correctness under concurrency rests on the unique
(dataset, key) constraint: the key row is inserted first, so a twin request waits for the first
one's transaction (on the dataset's lock, on SQLite the write lock, or else on the key's index
entry) and then fails to insert it and replays the stored answer.
A request that fails stores nothing, so it can be retried with the same key.
"""
from __future__ import annotations

import hashlib
import json
import re
from functools import wraps

from flask import Response, current_app, jsonify, request
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..db import dataset_lock, get_session, write_transaction
from ..models import IdempotencyKey
from ..scope import current_dataset
from ..services.errors import Conflict, InvalidInput

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
KEY = re.compile(r"[\x21-\x7e]{1,255}")  # visible ASCII, as a UUID or any client token


def idempotent(view):
    """Decorate a write route so that its Idempotency-Key header (optional) makes it happen once."""

    @wraps(view)
    def once(**kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return view(**kwargs)
        if not KEY.fullmatch(key):
            raise InvalidInput(f"{HEADER} must be 1 to 255 visible ASCII characters")
        session = get_session()
        dataset = current_dataset(session)
        fingerprint = request_fingerprint()
        stored = _stored(session, dataset, key)
        if stored is not None:
            return _replay(stored, fingerprint)
        try:
            with write_transaction(session, dataset_lock(dataset)):
                record = IdempotencyKey(dataset=dataset, key=key, fingerprint=fingerprint)
                session.add(record)
                session.flush()  # the claim: a twin request with this key waits here, then fails
                response = current_app.make_response(view(**kwargs))
                record.status, record.response = response.status_code, response.get_json()
        except IntegrityError:
            stored = _stored(session, dataset, key)
            if stored is None:
                raise
            return _replay(stored, fingerprint)
        return response

    return once


def request_fingerprint() -> str:
    """What makes two requests the same: method, path and the body (JSON compared by value)."""
    raw = request.get_data(cache=True)
    try:
        body = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":")).encode()
    except (ValueError, RecursionError):
        body = raw
    return hashlib.sha256(f"{request.method} {request.path}\n".encode() + body).hexdigest()


def _stored(session: Session, dataset: str, key: str) -> IdempotencyKey | None:
    return session.scalar(select(IdempotencyKey).where(IdempotencyKey.dataset == dataset, IdempotencyKey.key == key))


def _replay(stored: IdempotencyKey, fingerprint: str) -> Response:
    if stored.fingerprint != fingerprint:
        raise Conflict(f"This {HEADER} was already used for a different request; send a new key")
    response = jsonify(stored.response)
    response.status_code = stored.status
    response.headers[REPLAYED] = "true"
    return response
