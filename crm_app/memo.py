"""Remembering what the database says about rows that never change (a scenario's identity, a
flight's number and date) and what is drawn from them (a scenario's sample), so that a server
process asks or draws each only once."""
from __future__ import annotations

import threading
from collections.abc import Callable, Hashable

from flask import current_app


class Memo:
    """Values by key, for rows that are never updated or deleted once stored (or values computed
    from nothing else). Only values found are kept (a key not found yet may be stored later, by
    another process). Bounded: when full it forgets everything and starts over."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.values: dict = {}
        self.lock = threading.Lock()

    def get(self, key: Hashable, load: Callable[[], object]):
        """The value of `key`, from `load()` the first time it gives one."""
        value = self.values.get(key)
        if value is None:
            value = load()
            if value is not None:
                with self.lock:
                    if len(self.values) >= self.capacity:
                        self.values.clear()
                    self.values[key] = value
        return value


def memo_for(name: str, capacity: int) -> Memo:
    """The current app's memo called `name`, made on first use (one per app: one per database)."""
    memos = current_app.extensions.setdefault("memos", {})
    memo = memos.get(name)
    return memo if memo is not None else memos.setdefault(name, Memo(capacity))
