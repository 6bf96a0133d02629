"""What each test costs the machine: the CPU time of the pytest process and of everything it started
(the in-process servers, Chromium, subprocesses), for finding what makes `make test` long.

    CRM_TEST_CPU_LOG=cpu.jsonl make test          # or: pytest -p tests.cpu_cost ...

Each test appends one JSON line to the file: its node id, wall seconds and CPU seconds (set-up,
call and tear-down together; a session fixture's set-up falls on the first test that uses it).
`python -m tests.cpu_cost cpu.jsonl` prints the costliest files and tests. Linux only (/proc).
"""
from __future__ import annotations

import collections
import json
import os
import sys
import time
from pathlib import Path

import pytest

VARIABLE = "CRM_TEST_CPU_LOG"
TICKS = os.sysconf("SC_CLK_TCK")


def process_stats(own_only: bool = False) -> dict[int, tuple[int, float]]:
    """pid -> (parent pid, CPU seconds of it and, unless `own_only`, of its children it has waited for)."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[int(entry.name)] = (int(fields[1]), sum(int(value) for value in fields[11:13 if own_only else 15]) / TICKS)
    return found


def descendants(stats: dict[int, tuple[int, float]], root: int) -> list[int]:
    """The pids of `root`'s living descendants in `stats` (process_stats), `root` not among them."""
    children = collections.defaultdict(list)
    for pid, (parent, _) in stats.items():
        children[parent].append(pid)
    found, todo = [], list(children[root])
    while todo:
        found.append(pid := todo.pop())
        todo += children[pid]
    return found


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and its living descendants (the dead ones are in their parents' counts)."""
    stats = process_stats()
    return sum(stats.get(pid, (0, 0.0))[1] for pid in (root, *descendants(stats, root)))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    path = os.environ.get(VARIABLE)
    if not path:
        yield
        return
    started, cpu = time.monotonic(), tree_cpu(os.getpid())
    yield
    line = {"test": item.nodeid, "wall": round(time.monotonic() - started, 3),
            "cpu": round(tree_cpu(os.getpid()) - cpu, 3), "worker": os.environ.get("PYTEST_XDIST_WORKER", ""),
            "database": os.environ.get("CRM_TEST_DATABASE", "sqlite")}
    with open(path, "a") as log:
        log.write(json.dumps(line) + "\n")


def report(path: str, top: int = 40) -> None:
    lines = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    by_file = collections.Counter()
    for line in lines:
        by_file[line["test"].split("::")[0]] += line["cpu"]
    print(f"{len(lines)} tests, {sum(line['cpu'] for line in lines):.0f} CPU-s, "
          f"{sum(line['wall'] for line in lines):.0f} wall-s")
    print("\nfiles by CPU seconds:")
    for name, cpu in by_file.most_common(top):
        print(f"{cpu:8.1f}  {name}")
    print("\ntests by CPU seconds:")
    for line in sorted(lines, key=lambda line: -line["cpu"])[:top]:
        print(f"{line['cpu']:8.1f} {line['wall']:8.1f}  {line['test']}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        print("usage: python -m tests.cpu_cost LOG.jsonl [how many rows]", file=sys.stderr)
        raise SystemExit(2)
    report(sys.argv[1], *(int(a) for a in sys.argv[2:3]))
