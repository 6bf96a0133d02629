"""The package as a Space or a trainer installs it: its wheel (and the project's, which it needs)
built from this checkout, installed into a fresh virtual environment outside it, and the server
started there by its installed command; and `openenv validate` on the package and on a running server."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from airlinecrm_openenv.crm import free_port

from airlinecrm_openenv.server import wait_healthy

PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent.parent
OPENENV = Path(sys.executable).parent / "openenv"


def clean_env() -> dict[str, str]:
    """This process's environment without what points into the checkout or at its CRM."""
    return {key: value for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "VIRTUAL_ENV", "AIRLINECRM_URL") and not key.startswith("CRM_")}


def run(command: list, **options) -> subprocess.CompletedProcess:
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=600, **options)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A fresh environment outside the checkout holding the two wheels; their dependencies come
    from this environment's site-packages (a path file, read after the venv's own), and `pip check`
    proves the wheels' declared requirements are met by them: installing the ~150 pinned
    dependencies again took over 5 minutes on a loaded 2-core machine."""
    folder = tmp_path_factory.mktemp("openenv-package")
    dist, venv = folder / "dist", folder / "venv"
    for project in (ROOT, PACKAGE):
        run([sys.executable, "-m", "build", "--wheel", "--outdir", dist, project], cwd=folder)
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=folder)
    (site_packages,) = venv.glob("lib/python*/site-packages")
    (site_packages / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = [sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "--disable-pip-version-check"]
    run([*pip, "install", "--quiet", "--no-deps", *sorted(dist.glob("*.whl"))], cwd=folder, env=clean_env())
    run([*pip, "check"], cwd=folder, env=clean_env())
    return venv


def test_the_wheel_holds_the_package_and_its_commands(venv):
    (wheel,) = venv.parent.glob("dist/airlinecrm_openenv-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"airlinecrm_openenv", "airlinecrm_openenv-0.1.0.dist-info"}
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    assert "airlinecrm-openenv = airlinecrm_openenv.server:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


@pytest.mark.parametrize("command", [["airlinecrm-openenv"], ["airlinecrm", "openenv"]])
def test_the_installed_command_starts_the_server_with_its_own_crm(venv, tmp_path, command):
    port = free_port()
    env = clean_env()
    process = subprocess.Popen([venv / "bin" / command[0], *command[1:], "--port", str(port)], cwd=tmp_path,
                               env={**env, "PATH": f"{venv / 'bin'}:{env['PATH']}"},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, timeout=600)
        check = (f"from openenv import GenericEnvClient\n"
                 f"with GenericEnvClient(base_url='http://127.0.0.1:{port}').sync() as client:\n"
                 f"    print(client.reset(task='TASK_POLICY_CANCEL', seed=0).observation['metadata']['task'])\n")
        done = run([venv / "bin" / "python", "-c", check], cwd=tmp_path, env=env)
        assert done.stdout.strip() == "TASK_POLICY_CANCEL"
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert process.stdout.read().decode().startswith(f"AirlineCRM OpenEnv server on http://127.0.0.1:{port} (CRM: ")


def test_openenv_validate_passes_on_the_package_without_an_image_build():
    done = run([OPENENV, "validate", PACKAGE, "--level", "static"], cwd=PACKAGE)
    assert "PASS  static.manifest" in done.stdout and done.stdout.rstrip().endswith("Verdict: PASS")


def test_openenv_validate_passes_on_the_running_server(openenv_url):
    done = run([OPENENV, "validate", "--url", openenv_url, "--timeout", "30"])
    checks = ["openapi_version_available", "health_endpoint", "metadata_endpoint", "schema_endpoint", "mcp_endpoint",
              "mode_endpoint_consistency"]
    assert all(f"PASS  {check}" in done.stdout for check in checks) and "FAIL" not in done.stdout
    assert done.stdout.rstrip().endswith("Verdict: PASS")
