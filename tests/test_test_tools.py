"""The tools that measure `make test` itself: each test's CPU time (tests/cpu_cost.py, CRM_TEST_CPU_LOG)
and the machine's CPU use over the streams (tests/run_streams.py)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

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
    assert beside.passes[0][1][-2:] == ["--ignore", run_streams.PACKAGE_TESTS]
    package = streams[-1].passes[-1][1]
    assert package[-1] == run_streams.PACKAGE_TESTS and "-n" not in package
