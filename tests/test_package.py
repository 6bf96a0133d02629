"""The package as a user installs it: the sdist and the wheel built from this checkout, the wheel
installed into a fresh virtual environment outside it (first alone, then with the agent extra),
and the `airlinecrm` command run from another folder. Built and installed once for the module
(most of it installing the pinned dependencies from uv's cache, which `make` filled)."""
from __future__ import annotations

import csv
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from crm_app.version import VERSION
from tests.scenarios.run_py import serving

ROOT = Path(__file__).resolve().parent.parent
# Slow and database-independent: make test runs it beside the SQLite pass, in one process (one build).
pytestmark = [pytest.mark.timeout(900), pytest.mark.beside]
PAGE_FILES = ("crm_app/page/templates/index.html", "crm_app/page/static/app.js", "crm_app/page/static/style.css")
RUN_TIME_FILES = ("agent/env/page_agent.js", "agent/policies/prompts/flat.txt",
                  "agent/policies/prompts/paper/heap/planner.txt", "agent/results/report/templates/base.html",
                  "agent/results/report/static/report.js", "agent/results/references/heap-fig5.json",
                  "scenarios/customer/prompts/customer.txt", "agent/experiment/step_caps.json")
PACKAGES = {"crm_app", "scenarios", "agent", "airlinecrm", "airlinecrm_browsergym", f"airlinecrm-{VERSION}.dist-info"}
NOT_SHIPPED = re.compile(r"(^|/)(tests?|instance|runs|\.agent_cache|__pycache__)/|\.(db|sqlite|pyc)$|"
                         r"(^|/)(operator_token|secret_key|\.env)$")


@dataclass
class Installed:
    wheel: Path
    sdist: Path
    venv: Path
    elsewhere: Path  # the folder commands run in: neither the checkout nor the environment
    data_home: Path  # XDG_DATA_HOME of the commands
    without_extra: subprocess.CompletedProcess  # `airlinecrm run` before the agent extra was installed

    def command(self, *args: str, **options) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.venv / "bin" / "airlinecrm"), *args], cwd=self.elsewhere, env=self.env(),
                              capture_output=True, text=True, timeout=300, **options)

    def env(self) -> dict[str, str]:
        """This process's environment without what points into the checkout or sets the CRM's data
        (the test run's settings, CRM_*): the installed copy runs on its defaults."""
        env = {key: value for key, value in os.environ.items()
               if key not in ("PYTHONPATH", "DATABASE_URL", "VIRTUAL_ENV")
               and (not key.startswith("CRM_") or key == "CRM_CHROMIUM")}
        return {**env, "XDG_DATA_HOME": str(self.data_home), "PATH": f"{self.venv / 'bin'}:{env.get('PATH', '')}"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    folder = tmp_path_factory.mktemp("package")
    dist, venv, elsewhere = folder / "dist", folder / "venv", folder / "elsewhere"
    elsewhere.mkdir()
    # build's default: the sdist, then the wheel from the sdist (which so proves the sdist whole)
    _check([sys.executable, "-m", "build", "--installer", "uv", "--outdir", str(dist), str(ROOT)], cwd=folder)
    (wheel,), (sdist,) = dist.glob("*.whl"), dist.glob("*.tar.gz")
    _check([sys.executable, "-m", "venv", str(venv)], cwd=folder)
    constraints = folder / "constraints.txt"
    constraints.write_text(_pinned_versions())
    # uv installs as the Makefile does (pip reads the same wheel metadata, for about three times the CPU)
    install = [sys.executable, "-m", "uv", "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"),
               "-c", str(constraints)]
    _check([*install, str(wheel)], cwd=folder)
    found = Installed(wheel, sdist, venv, elsewhere, folder / "data", None)
    found.without_extra = found.command("run", "--method", "oracle")
    _check([*install, f"{wheel}[agent]"], cwd=folder)
    return found


def _pinned_versions() -> str:
    """Constraints: the versions this test's own environment runs, so that the fresh environment
    gets the same ones (and uv takes them from its cache)."""
    found = {dist.metadata["Name"]: dist.version for dist in importlib.metadata.distributions()
             if dist.metadata["Name"] and dist.metadata["Name"].lower() != "airlinecrm"}
    return "".join(f"{name}=={version}\n" for name, version in sorted(found.items()))


def _check(command: list[str], **options) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, **options)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def test_the_wheel_holds_what_runs_and_nothing_else(installed):
    names = zipfile.ZipFile(installed.wheel).namelist()
    assert set(PAGE_FILES + RUN_TIME_FILES) <= set(names)
    assert {name.split("/")[0] for name in names} == PACKAGES
    assert [name for name in names if NOT_SHIPPED.search(name)] == []


def test_the_sdist_holds_the_page_files_at_the_root_and_no_tests(installed):
    top = f"airlinecrm-{VERSION}/"
    names = [name.removeprefix(top) for name in tarfile.open(installed.sdist).getnames()]
    assert {"templates/index.html", "static/app.js", "setup.py", "pyproject.toml"} <= set(names)
    assert [name for name in names if NOT_SHIPPED.search(name)] == []


def test_version(installed):
    done = installed.command("--version")
    assert (done.returncode, done.stdout.strip()) == (0, f"airlinecrm {VERSION}")


def test_an_agent_command_without_the_agent_extra_names_the_extra(installed):
    assert installed.without_extra.returncode == 1
    (line,) = installed.without_extra.stderr.splitlines()
    assert line.startswith("airlinecrm run: needs the agent extra") and "pip install 'airlinecrm[agent]'" in line


@pytest.fixture(scope="module")
def served(installed):
    """`airlinecrm serve` of the installed copy, started in another folder: its URL."""
    with serving([str(installed.venv / "bin" / "airlinecrm"), "serve", "--port", "0"], cwd=installed.elsewhere,
                 env=installed.env()) as (_, url):
        yield url


def test_the_installed_copy_runs_from_site_packages(installed):
    done = subprocess.run([str(installed.venv / "bin" / "python"), "-c", "import crm_app; print(crm_app.__file__)"],
                          cwd=installed.elsewhere, env=installed.env(), capture_output=True, text=True, timeout=60)
    assert "site-packages" in done.stdout and not done.stdout.startswith(str(ROOT)), done


@pytest.mark.browser
def test_the_page_loads_with_its_scripts_and_styles(served, page):
    answers = []
    page.on("response", lambda response: answers.append((response.url, response.status)))
    page.goto(served + "/")
    page.get_by_role("button", name="Search flights").wait_for()
    assert [answer for answer in answers if answer[1] >= 400] == []
    loaded = {url.rsplit(".", 1)[-1] for url, _ in answers if url.endswith((".js", ".css"))}
    assert loaded == {"js", "css"}


def test_scenarios_are_made_and_scored_and_kept_in_the_user_data_folder(served, installed):
    scenario = _get_json(f"{served}/generate-random-scenario?task=TASK_FIND_FLIGHT&seed=3")
    scored = _get_json(f"{served}/evaluate?scenario={scenario['id']}")
    assert (scored["id"], scored["success"]) == (scenario["id"], 0)
    kept = installed.data_home / "airlinecrm"
    assert (kept / "crm.db").is_file() and (kept / "operator_token").is_file()
    assert list(installed.elsewhere.iterdir()) == []  # nothing written to the current folder


def test_the_oracle_scores_one_against_the_installed_server(served, installed, tmp_path):
    token = (installed.data_home / "airlinecrm" / "operator_token").read_text().strip()
    done = installed.command("run", "--method", "oracle", "--tasks", "TASK_FIND_FLIGHT", "--episodes", "1",
                             "--server", served, f"--operator-token={token}", "--out", str(tmp_path / "run"),
                             "--quiet", "--no-report")
    assert done.returncode == 0, done.stderr
    (episode,) = csv.DictReader((tmp_path / "run" / "episodes.csv").open())
    assert float(episode["success"]) == 1.0


def _get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.loads(answer.read())
