"""What a CRM server hands out, read once per server: its OpenAPI document (the tools come from it,
agent/crm/tools.py) and GET /api/suites (the suites, their tasks and the expert suite's train/test
splits), and the choice of a task for a reset that names a split but no task."""
from __future__ import annotations

import functools
import random

from agent.crm.tools import fetch_openapi
from crm_app.http_client import http_sender

SPLITS = ("train", "test")


class ResetError(ValueError):
    """A reset that cannot make a scenario (an unknown suite, task or split); the message says why."""


@functools.lru_cache(maxsize=8)
def openapi(server_url: str) -> dict:
    return fetch_openapi(server_url)


@functools.lru_cache(maxsize=8)
def suites(server_url: str) -> dict[str, list[dict]]:
    """suite -> its tasks ({"name", "split", "kinds"}), as GET /api/suites answers."""
    status, answer = http_sender(server_url, 30.0)("GET", "/api/suites")
    if status != 200:
        raise ResetError(f"{server_url}/api/suites answered {status}")
    return {suite["name"]: suite["tasks"] for suite in answer["suites"]}


def split_of(server_url: str, suite: str, task: str) -> str | None:
    return next((row["split"] for row in suites(server_url).get(suite, []) if row["name"] == task), None)


def choose_task(server_url: str, suite: str, split: str | None, task: str | None, seed: int | None) -> str | None:
    """The task a reset asks for: `task` itself (checked against `split`), else one of the split's
    tasks (the same for the same seed), else None (the server draws one)."""
    if split is None:
        return task
    if split not in SPLITS:
        raise ResetError(f"Unknown split: {str(split)[:40]}. Choose one of {', '.join(SPLITS)}")
    tasks = suites(server_url).get(suite)
    if tasks is None:
        raise ResetError(f"Unknown suite: {str(suite)[:40]}. Choose one of {', '.join(suites(server_url))}")
    names = [row["name"] for row in tasks if row["split"] == split]
    if not names:
        raise ResetError(f"the {suite} suite has no {split} split (only the expert suite is split)")
    if task is not None:
        if task not in names:
            raise ResetError(f"{task} is not in the {split} split of the {suite} suite")
        return task
    return names[seed % len(names)] if seed is not None else random.choice(names)
