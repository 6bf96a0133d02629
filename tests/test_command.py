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
    assert all(f"    {name}" in shown for name in ["serve", "init-db", "mcp", "openenv", *agent_cli.commands()])


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


def test_the_help_of_serve_and_run_describes_every_suite():
    from agent.experiment.protocols import PROTOCOLS
    from scenarios.suites import SUITES

    def flat(text: str) -> str:
        return " ".join(text.split()).replace("- ", "-")  # argparse wraps lines, and at hyphens

    served, run = flat(airlinecrm("serve", "--help").stdout), flat(airlinecrm("run", "--help").stdout)
    assert all(f"{name}: {flat(suite.description)}" in served for name, suite in SUITES.items())
    assert all(f"{name}: {flat(protocol.description)}" in run for name, protocol in PROTOCOLS.items())
    assert "package.module:Class" in run


def test_airlinecrm_run_takes_a_policy_class_from_the_current_folder(tmp_path):
    (tmp_path / "mine.py").write_text("class Agent:\n    pass\n")
    refused = airlinecrm("run", "--method", "mine:Agent", "--out", str(tmp_path / "run"), cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.strip() == ("--method mine:Agent: Agent does not follow the policy contract "
                                      "(agent/episode/policy.py): it is not a subclass of agent.episode.policy.Policy")


def test_openenv_without_its_package_says_how_to_install_it():
    done = airlinecrm("openenv", "--port", "0")  # the main environment has no airlinecrm-openenv (its own venv)
    assert (done.returncode, done.stderr.strip()) == (1, "airlinecrm openenv: needs the airlinecrm-openenv package "
                                                         "(no module named 'airlinecrm_openenv'): pip install -c "
                                                         "integrations/openenv/constraints.txt -e integrations/openenv")
