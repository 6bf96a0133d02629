"""The tools that measure `make test` itself: each test's CPU time (tests/cpu_cost.py, CRM_TEST_CPU_LOG)
and the machine's CPU use over the streams (tests/run_streams.py)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import cpu_cost, run_streams

ROOT = Path(__file__).resolve().parent.parent


def test_a_subprocess_that_burns_cpu_is_counted_in_the_tree():
    before = cpu_cost.tree_cpu(cpu_cost.os.getpid())
    subprocess.run([sys.executable, "-c", "import time\nend = time.process_time() + 0.5\n"
                    "while time.process_time() < end: pass"], check=True)
    assert cpu_cost.tree_cpu(cpu_cost.os.getpid()) - before >= 0.4


def test_each_test_writes_its_cpu_line_and_the_report_ranks_files(tmp_path):
    (tmp_path / "test_sample.py").write_text(textwrap.dedent("""
        import time

        def test_busy():
            end = time.process_time() + 0.3
            while time.process_time() < end:
                pass

        def test_idle():
            time.sleep(0.2)
    """))
    log = tmp_path / "cpu.jsonl"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.cpu_cost",
                    str(tmp_path / "test_sample.py")], cwd=ROOT, check=True, capture_output=True,
                   env={**cpu_cost.os.environ, cpu_cost.VARIABLE: str(log)})
    lines = {line["test"].split("::")[1]: line for line in map(json.loads, log.read_text().splitlines())}
    assert set(lines) == {"test_busy", "test_idle"}
    assert lines["test_busy"]["cpu"] >= 0.25 and lines["test_idle"]["cpu"] < 0.15 <= lines["test_idle"]["wall"]
    printed = subprocess.run([sys.executable, "-m", "tests.cpu_cost", str(log)], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
    assert printed.startswith("2 tests, ") and "test_sample.py" in printed
    assert printed.index("::test_busy") < printed.index("::test_idle")  # the costliest first


def test_the_streams_say_how_busy_the_machines_cpus_were():
    before = run_streams.cpu_seconds()
    end = cpu_cost.time.process_time() + 0.3
    while cpu_cost.time.process_time() < end:
        pass
    said = run_streams.busy_share(before)
    assert said.startswith("CPUs ") and said.endswith(f" % busy ({cpu_cost.os.cpu_count()} cores)")
    assert 0 < int(said.split()[1]) <= 100
    assert run_streams.busy_share(None) == "CPU use unknown"


def test_the_passes_cache_bytecode_and_keep_the_rest_of_the_environment(monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("CRM_TEST_CPU_LOG", "cpu.jsonl")
    env = run_streams.pass_environment({"CRM_TEST_DATABASE": "postgresql"})
    assert "PYTHONDONTWRITEBYTECODE" not in env
    assert env["CRM_TEST_CPU_LOG"] == "cpu.jsonl" and env["CRM_TEST_DATABASE"] == "postgresql"


def test_the_package_is_built_in_one_process_not_in_the_beside_workers():
    passes = run_streams.passes()
    assert run_streams.PACKAGE_TESTS not in passes["beside"].command
    package = passes["the package"].command
    assert package[-1] == run_streams.PACKAGE_TESTS and "-n" not in package


BESIDE_MARK = re.compile(r"^\s*(@pytest\.mark\.beside\b|pytestmark\b.*\bpytest\.mark\.beside\b)", re.MULTILINE)


def test_the_beside_pass_collects_every_file_that_holds_a_beside_test_and_no_other():
    """The SQLite pass leaves `beside` tests out: one in a file the beside pass does not collect would run nowhere."""
    marked = sorted(str(path.relative_to(run_streams.ROOT)) for path in (run_streams.ROOT / "tests").rglob("test_*.py")
                    if BESIDE_MARK.search(path.read_text()))
    beside = run_streams.passes()["beside"].command
    assert sorted([*run_streams.BESIDE_FILES, run_streams.PACKAGE_TESTS]) == marked
    assert beside[-len(run_streams.BESIDE_FILES):] == run_streams.BESIDE_FILES and "beside" in beside


@pytest.mark.parametrize("cores", [1, 2, 8])
def test_the_test_passes_take_a_worker_per_core(monkeypatch, cores):
    monkeypatch.setattr(run_streams.os, "cpu_count", lambda: cores)
    passes = run_streams.passes()
    found = [passes[name].command[passes[name].command.index("-n") + 1] for name in ("SQLite", "beside", "PostgreSQL")]
    assert found == [str(cores)] * 3


def test_two_streams_the_tests_one_after_the_other_and_the_integrations_after_their_environments():
    tests, integrations = run_streams.streams()
    assert [step.name for step in tests.passes] == ["SQLite", "beside", "PostgreSQL"] and tests.log is None
    assert [step.name for step in integrations.passes] == ["integrations", "BrowserGym", "CUBE", "OpenEnv", "verifiers",
                                                           "the package"]
    assert integrations.passes[0].command[-1] == "integrations" and integrations.passes[0].needed
    assert not any(step.needed for step in [*tests.passes, *integrations.passes[1:]])


def python_pass(name: str, code: str, needed: bool = False) -> run_streams.Pass:
    return run_streams.Pass(name, [sys.executable, "-c", code], needed=needed)


def test_a_failed_pass_is_reported_and_the_passes_after_it_still_run(tmp_path):
    marker = tmp_path / "ran"
    stream = run_streams.Stream("tests", [python_pass("first", "raise SystemExit(3)"),
                                          python_pass("second", f"open({str(marker)!r}, 'w').close()")], tmp_path / "log")
    stream.run(run_streams.time.monotonic())
    assert stream.failed and marker.exists()
    assert [outcome.split(",")[0] for outcome in stream.outcomes] == ["first FAILED", "second passed"]


def test_after_a_failed_pass_that_the_rest_need_none_runs(tmp_path):
    marker = tmp_path / "ran"
    stream = run_streams.Stream("integrations", [python_pass("environments", "raise SystemExit(2)", needed=True),
                                                 python_pass("tests", f"open({str(marker)!r}, 'w').close()")],
                                tmp_path / "log")
    stream.run(run_streams.time.monotonic())
    assert stream.failed and not marker.exists() and len(stream.outcomes) == 1
    assert (tmp_path / "log").read_text() == "not run: the passes after environments, which failed\n"


def test_a_stopped_stream_starts_no_further_pass(tmp_path):
    marker = tmp_path / "ran"
    stream = run_streams.Stream("tests", [python_pass("long", "import time; time.sleep(60)"),
                                          python_pass("next", f"open({str(marker)!r}, 'w').close()")], tmp_path / "log")
    running = run_streams.threading.Thread(target=stream.run, args=(run_streams.time.monotonic(),))
    running.start()
    while stream.process is None:
        run_streams.time.sleep(0.05)
    stream.stop()
    running.join(30)
    assert not running.is_alive() and stream.failed and not marker.exists()


def test_the_postgresql_pass_leaves_out_the_tests_that_use_no_database():
    """A test that uses no database of the tests' runs the same on SQLite and PostgreSQL: with
    --only-database-tests (the PostgreSQL pass) it is left out, reported as deselected."""
    def collected(*options: str) -> list[str]:
        printed = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only",
                                  *options, "tests/api/test_secrets.py"], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout
        return [line.split("::")[1] for line in printed.splitlines() if "::" in line]

    everything, with_databases = collected(), collected("--only-database-tests")
    assert set(everything) - set(with_databases) == {"test_processes_starting_together_on_a_fresh_folder_share_one_secret",
                                                     "test_a_new_secret_can_follow_an_option_on_a_command_line"}
    assert "test_environment_variables_win" in with_databases
    postgresql = run_streams.passes()["PostgreSQL"]
    assert postgresql.env == {"CRM_TEST_DATABASE": "postgresql"} and "--only-database-tests" in postgresql.command
