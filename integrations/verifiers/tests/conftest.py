"""One CRM and one OpenEnv server for the run, started by the OpenEnv package's own Python (its
virtual environment: openenv cannot share this one, see docs/verifiers.md), with the oracle's
tool calls on the first hard tasks; vf-eval from this environment plays them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))  # tests/fake_openai.py
OPENENV_PYTHON = Path(os.environ.get("AIRLINECRM_OPENENV_PYTHON", ROOT / ".venv-openenv" / "bin" / "python"))
SUITE, TASKS, SEED = "hard", 3, 0


@pytest.fixture(scope="session")
def openenv_side():
    """{"openenv_url", "crm_url", "scenarios": [{"reset", "briefing", "gold_calls"}]} of tests/openenv_side.py."""
    if not OPENENV_PYTHON.exists():
        pytest.fail(f"{OPENENV_PYTHON} is missing: make openenv builds it (or set AIRLINECRM_OPENENV_PYTHON)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "integrations" / "openenv")])}
    process = subprocess.Popen([str(OPENENV_PYTHON), str(Path(__file__).parent / "openenv_side.py"), SUITE,
                                str(TASKS), str(SEED)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True)
    try:
        line = process.stdout.readline()
        if not line:
            pytest.fail(f"the OpenEnv side stopped at start (exit {process.wait()})")
        yield json.loads(line)
    finally:
        process.stdin.close()
        process.wait(timeout=60)
