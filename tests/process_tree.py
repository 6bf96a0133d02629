"""A process and its descendants as Linux shows them in /proc: which are Chromium's browsers, and
how much memory they use (PSS, proportional set size: each shared page counted once, split
between the processes that share it, so the figures of several processes add up)."""
from __future__ import annotations

import os
import threading
from pathlib import Path

PROC = Path("/proc")


def descendants(pid: int | None = None) -> list[int]:
    """`pid` (default: this process) and every process below it."""
    found, todo = [], [pid or os.getpid()]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in _listing(PROC / str(current) / "task"):
            todo += [int(child) for child in _read(PROC / str(current) / "task" / task / "children").split()]
    return found


def pss_mb(pid: int) -> float:
    """The process's PSS in MB (0 for a process that has ended)."""
    for line in _read(PROC / str(pid) / "smaps_rollup").splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def tree_pss_mb(pid: int | None = None) -> float:
    """The PSS of the process and its descendants together, in MB."""
    return sum(pss_mb(process) for process in descendants(pid))


def chromium_browsers(pid: int | None = None) -> set[int]:
    """The Chromium browser processes (not their renderers, GPU or utility processes) below `pid`.
    A process that Chromium has just forked shows the browser's command line until it execs, so
    only a Chromium process whose parent is not Chromium counts."""
    return {process for process in descendants(pid)
            if _is_chromium_browser(process) and not _is_chromium(_parent(process))}


def _is_chromium(pid: int) -> bool:
    words = _read(PROC / str(pid) / "cmdline").replace("\0", " ").split()
    return bool(words) and "chromium" in words[0]


def _is_chromium_browser(pid: int) -> bool:
    words = _read(PROC / str(pid) / "cmdline").replace("\0", " ").split()
    return _is_chromium(pid) and not any(word.startswith("--type=") for word in words)


def _parent(pid: int) -> int:
    """The parent's pid (0 for a process that has ended)."""
    stat = _read(PROC / str(pid) / "stat")  # "pid (name) state ppid ...": the name may hold spaces
    return int(stat.rpartition(")")[2].split()[1]) if stat else 0


class Watch:
    """Calls `look()` every `seconds` while the block runs, on a thread of its own."""

    def __init__(self, look, seconds: float):
        self._look, self._seconds = look, seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _run(self):
        while not self._stop.wait(self._seconds):
            self._look()


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:  # the process ended meanwhile
        return ""


def _listing(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []
