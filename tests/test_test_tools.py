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
    streams = run_streams.streams()
    beside = next(stream for stream in streams if stream.name == "beside")
    assert run_streams.PACKAGE_TESTS not in beside.passes[0][1]
    package = streams[-1].passes[-1][1]
    assert package[-1] == run_streams.PACKAGE_TESTS and "-n" not in package


BESIDE_MARK = re.compile(r"^\s*(@pytest\.mark\.beside\b|pytestmark\b.*\bpytest\.mark\.beside\b)", re.MULTILINE)


def test_the_beside_pass_collects_every_file_that_holds_a_beside_test_and_no_other():
    """The SQLite pass leaves `beside` tests out: one in a file the beside pass does not collect would run nowhere."""
    marked = sorted(str(path.relative_to(run_streams.ROOT)) for path in (run_streams.ROOT / "tests").rglob("test_*.py")
                    if BESIDE_MARK.search(path.read_text()))
    beside = next(stream for stream in run_streams.streams() if stream.name == "beside").passes[0][1]
    assert sorted([*run_streams.BESIDE_FILES, run_streams.PACKAGE_TESTS]) == marked
    assert beside[-len(run_streams.BESIDE_FILES):] == run_streams.BESIDE_FILES and "beside" in beside


@pytest.mark.parametrize("cores, expected", [(1, ("1", "1", "1")), (2, ("2", "1", "2")), (8, ("8", "4", "8"))])
def test_the_passes_take_their_workers_from_the_number_of_cores(monkeypatch, cores, expected):
    monkeypatch.setattr(run_streams.os, "cpu_count", lambda: cores)
    by_name = {stream.name: stream.passes[0][1] for stream in run_streams.streams()}
    found = tuple(by_name[name][by_name[name].index("-n") + 1] for name in ("SQLite", "PostgreSQL", "beside"))
    assert found == expected


def test_the_integrations_environments_are_built_in_a_stream_and_the_openenv_stream_waits_for_them():
    streams = {stream.name: stream for stream in run_streams.streams()}
    builder = streams["BrowserGym and CUBE"]
    assert builder.passes[0][1][-1] == "integrations" and builder.after is None
    assert streams["OpenEnv, verifiers and the package"].after is builder
    assert all(stream.after is None for name, stream in streams.items() if name != "OpenEnv, verifiers and the package")


def stream_pair(tmp_path, first_exit: int) -> tuple[run_streams.Stream, run_streams.Stream]:
    """A stream whose first pass exits with `first_exit`, and one after it that writes a file."""
    python = [sys.executable, "-c"]
    first = run_streams.Stream("builder", [({}, [*python, f"raise SystemExit({first_exit})"])], tmp_path / "first.log")
    marker = tmp_path / "ran"
    second = run_streams.Stream("tests", [({}, [*python, f"open({str(marker)!r}, 'w').close()"])],
                                tmp_path / "second.log", after=first)
    return first, second


def test_a_stream_starts_once_the_first_pass_of_the_one_it_comes_after_passed(tmp_path):
    first, second = stream_pair(tmp_path, 0)
    waiting = run_streams.threading.Thread(target=second.run, args=(0.0,))
    waiting.start()
    waiting.join(0.5)
    assert waiting.is_alive() and not (tmp_path / "ran").exists()  # still waiting for `first`
    first.run(0.0)
    waiting.join(30)
    assert (tmp_path / "ran").exists() and not second.failed and not first.failed


def test_a_stream_after_a_failed_first_pass_fails_without_running(tmp_path):
    first, second = stream_pair(tmp_path, 3)
    first.run(0.0)
    second.run(0.0)
    assert first.failed and second.failed and not (tmp_path / "ran").exists()
    assert (tmp_path / "second.log").read_text() == "not run: the builder stream's first pass failed\n"


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
    streams = run_streams.streams()
    postgresql = next(stream for stream in streams if stream.name == "PostgreSQL").passes[0]
    assert postgresql[0] == {"CRM_TEST_DATABASE": "postgresql"} and "--only-database-tests" in postgresql[1]
