"""CUBE's own command line finds the benchmark and passes its own test suite on it."""
import os
import subprocess
import sys
from pathlib import Path

from scenarios.tasks.expert import TEMPLATES

CUBE = str(Path(sys.executable).with_name("cube"))


def cube(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([CUBE, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_cube_list_shows_the_benchmark(tmp_path):
    listed = cube("list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    row = next(line for line in listed.stdout.splitlines() if "airlinecrm-cube" in line)
    assert str(23 + len(TEMPLATES)) in row.split() and "(failed to load)" not in listed.stdout  # and the expert templates


def test_cube_test_passes(tmp_path):
    """cube test --ci: the debug tasks done with reward 1, two parallel resets equal, tools, close, metadata."""
    tested = cube("test", "airlinecrm-cube", "--ci", cwd=tmp_path)
    output = tested.stdout + tested.stderr
    assert tested.returncode == 0, output
    assert "FAIL" not in output and "PASSED" in output  # cube's exit status is 0 when only a check failed
    for check in ("full_episode", "reset_reproducibility", "tools_list", "close_idempotent", "benchmark_metadata"):
        assert f"PASS  test_{check}" in output
    for task in ("full.find-flight", "paper.find-booking", "hard.policy-cancel"):
        assert f"✓ {task}" in output
