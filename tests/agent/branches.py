"""Which seeds meet every branch of a task: read from the scenarios the server draws (a pure function
of task and seed, so each answer is kept for the session)."""
from __future__ import annotations

import functools

import requests

from tests.conftest import OPERATOR_TOKEN

MOST_BRANCHES = 5  # a hard task's seed draws branch seed % n, n at most 5 (tests/scenarios/test_hard_suite.py);
# an expert template's request i draws with seed + i (composer.py): five seeds meet every branch


@functools.cache
def drawn_details(server: str, suite: str, task: str, seed: int) -> dict:
    """The operator's details of the task's scenario of `seed`."""
    return requests.get(f"{server}/generate-random-scenario", params={"suite": suite, "task": task, "seed": seed},
                        headers={"X-Operator-Token": OPERATOR_TOKEN}, timeout=10).json()["details"]


def branch_seeds(server: str, task: str) -> range:
    """Seeds 0 to n - 1 of a hard task of n branches: they meet each branch once."""
    return range(len({drawn_details(server, "hard", task, seed)["branch"] for seed in range(MOST_BRANCHES)}))


def seeds_to_every_branch(server: str, template: str) -> int:
    """How many seeds from 0 meet every (request, kind, branch) that the expert template's seeds 0 to 4 meet."""
    met = [{(index, request["kind"], request.get("branch"))
            for index, request in enumerate(drawn_details(server, "expert", template, seed)["requests"])}
           for seed in range(MOST_BRANCHES)]
    return next(count for count in range(1, MOST_BRANCHES + 1) if set().union(*met[:count]) == set().union(*met))
