"""The `airlinecrm` command in the checkout (python -m airlinecrm): it offers every command of
`python -m agent`'s parser and hands them over unchanged; its own commands stop on a wrong
setting with one line. The installed command: tests/test_package.py."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import agent.__main__ as agent_cli

ROOT = Path(__file__).resolve().parent.parent


def airlinecrm(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "airlinecrm", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)


def test_help_lists_its_own_commands_and_every_agent_command():
    shown = airlinecrm("--help").stdout
    assert all(f"    {name}" in shown for name in ["serve", "init-db", "mcp", *agent_cli.commands()])


def test_an_agent_command_answers_as_python_m_agent_does(tmp_path):
    mine, theirs = airlinecrm("summarize", "--out", str(tmp_path)), subprocess.run(
        [sys.executable, "-m", "agent", "summarize", "--out", str(tmp_path)], cwd=ROOT, capture_output=True,
        text=True, timeout=120)
    assert (mine.returncode, mine.stdout) == (theirs.returncode, theirs.stdout) and "No trajectories" in mine.stdout


def test_an_unknown_command_names_the_commands():
    done = airlinecrm("serv")
    assert done.returncode == 2 and "invalid choice: 'serv'" in done.stderr and "'serve'" in done.stderr


def test_serve_refuses_a_wrong_public_url_in_one_line(tmp_path):
    done = airlinecrm("serve", "--instance", str(tmp_path), "--public-url", "crm.example.org")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith("airlinecrm serve: error: CRM_PUBLIC_URL / --public-url must be")


def test_init_db_fills_the_given_instance_folder(tmp_path):
    done = airlinecrm("init-db", "--instance", str(tmp_path / "data"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "data" / "crm.db").is_file() and list(tmp_path.iterdir()) == [tmp_path / "data"]
