"""`python run.py` as a user starts it, on a SQLite file of the test's own folder."""
from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def run_py(folder: Path, *arguments: str):
    """The server started with these arguments: (what it printed up to the line saying where it
    serves, its URL); stopped on leaving."""
    env = {**os.environ, "CRM_INSTANCE_PATH": str(folder)}
    with serving([sys.executable, "run.py", "--port", "0", "--db", f"sqlite:///{folder / 'crm.db'}", *arguments],
                 cwd=ROOT, env=env) as started:
        yield started


@contextlib.contextmanager
def serving(command: list[str], **options):
    """A server started by `command` (subprocess.Popen `options`): (what it printed up to the line
    saying where it serves, its URL); stopped on leaving."""
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, **options)
    try:
        lines = []
        for line in server.stdout:
            lines.append(line)
            if "serving at" in line:
                break
        found = re.search(r"http://127\.0\.0\.1:\d+", lines[-1]) if lines else None
        assert found, lines
        yield lines, found.group(0)
    finally:
        server.terminate()
        server.wait(timeout=30)
