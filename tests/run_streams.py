"""`make test`: the test passes in two streams at once, each stream's passes one after the other.

    python tests/run_streams.py        # the venvs' interpreters from PY, BG_PY, CUBE_PY, OE_PY, VF_PY

(1) The tests in `.venv`: SQLite, then the `beside` sweeps, then the database tests again on
PostgreSQL, each on a pytest-xdist worker per core. (2) The integrations: their four environments
built (`make integrations`, nothing to do when they are up to date), then BrowserGym, CUBE, OpenEnv
and verifiers in their own environments, then the package in one process. On a fresh machine the
second stream's installs run while the first already tests.

Two streams, not one a pass: every process more at once costs each browser step CPU (caches,
context switches), and five streams took 34.7 min where these two took 28.3 on the same afternoon
(docs/tests.md). The first stream prints as it goes; the second's output goes to its log and is
printed after it, then the minute each pass ended at and how busy the machine's CPUs were
meanwhile (tests/cpu_cost.py says which tests cost what). A failed pass does not stop the passes
after it, but for the environments' build, which the integrations' passes need. The streams share
no files or ports: each pytest worker has its own temporary folder, servers and PostgreSQL
cluster. Exits 1 when any pass failed, 130 on Ctrl-C (every pass stopped).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTEST = ("-m", "pytest", "-q", "-p", "no:cacheprovider")
PACKAGE_TESTS = "tests/test_package.py"  # marked `beside`: the SQLite pass leaves them out
# The files that hold the `beside` pass's tests (the package's aside): its workers collect only these,
# not the whole suite (a collection of every test module costs each worker about 9 CPU-s).
BESIDE_FILES = ["tests/agent/test_expert_protocol.py", "tests/agent/test_oracle_for_every_caller.py",
                "tests/agent/test_oracle_in_every_variant.py", "tests/agent/test_step_caps.py"]


@dataclass(frozen=True)
class Pass:
    name: str
    command: list[str]
    env: dict = field(default_factory=dict)  # on top of this process's environment
    needed: bool = False  # the passes after it need it: when it fails, they are not run


@dataclass
class Stream:
    name: str
    passes: list[Pass]  # one after the other
    log: Path | None  # None: the terminal
    failed: bool = False
    outcomes: list[str] = field(default_factory=list)  # "SQLite passed, ended at 17.2 min", ...
    process: subprocess.Popen | None = field(default=None, repr=False)
    stopping: threading.Event = field(default_factory=threading.Event, repr=False)

    def run(self, started: float) -> None:
        """Each pass in turn; after a failed one that the rest need, none."""
        out = self.log.open("w") if self.log else None
        try:
            for step in self.passes:
                if self.stopping.is_set():
                    break
                self.process = subprocess.Popen(step.command, env=pass_environment(step.env), stdout=out,
                                                stderr=subprocess.STDOUT if out else None, start_new_session=True)
                passed = self.process.wait() == 0
                self.outcomes.append(f"{step.name} {'passed' if passed else 'FAILED'}, "
                                     f"ended at {(time.monotonic() - started) / 60:.1f} min")
                if not passed:
                    self.failed = True
                    if step.needed:
                        print(f"not run: the passes after {step.name}, which failed", file=out, flush=True)
                        break
        finally:
            if out:
                out.close()

    def stop(self) -> None:
        """No pass after this one, and this one's processes stopped."""
        self.stopping.set()
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)


def pass_environment(extra: dict) -> dict:
    """This process's environment and `extra`, with bytecode caching on: where PYTHONDONTWRITEBYTECODE
    is set, every pytest process rewrote the asserts of every test module again (7 of a collection's
    14 CPU-s); with it unset the first one caches them (`__pycache__`, ignored by git)."""
    return {key: value for key, value in {**os.environ, **extra}.items() if key != "PYTHONDONTWRITEBYTECODE"}


def built(target: str) -> Pass:
    """The pass that builds environments (a Makefile target), where they are out of date."""
    return Pass(target, [os.environ.get("MAKE", "make"), "--no-print-directory", "-s", target], needed=True)


def workers() -> str:
    """pytest-xdist workers for a pass: one per CPU core."""
    return str(os.cpu_count() or 1)


def streams() -> list[Stream]:
    py, bg, cube, oe, vf = (os.environ.get(name, default) for name, default in (
        ("PY", ".venv/bin/python"), ("BG_PY", ".venv-browsergym/bin/python"), ("CUBE_PY", ".venv-cube/bin/python"),
        ("OE_PY", ".venv-openenv/bin/python"), ("VF_PY", ".venv-verifiers/bin/python")))
    return [
        Stream("tests", [
            # everything on SQLite but the long sweeps; a test file stays on one worker (its module fixtures made once)
            Pass("SQLite", [py, "-m", "pytest", "-q", "-n", workers(), "--dist", "loadfile", "-m", "not beside"]),
            # the long browser sweeps, on SQLite
            Pass("beside", [py, *PYTEST, "-n", workers(), "-m", "beside", *BESIDE_FILES]),
            # the API and scenario tests that use a database (the others would run as they do on SQLite)
            Pass("PostgreSQL", [py, *PYTEST, "-n", workers(), "--dist", "loadfile", "-m", "not database_independent",
                                "--only-database-tests", "tests/api", "tests/scenarios"], {"CRM_TEST_DATABASE": "postgresql"}),
        ], None),
        Stream("integrations", [
            built("integrations"),
            Pass("BrowserGym", [bg, *PYTEST, "integrations/browsergym/tests"]),
            Pass("CUBE", [cube, *PYTEST, "integrations/cube/tests"]),
            Pass("OpenEnv", [oe, *PYTEST, "integrations/openenv/tests"]),
            Pass("verifiers", [vf, *PYTEST, "integrations/verifiers/tests"]),
            # the package built and installed once, in one process (pytest-xdist 3.8's xdist_group has
            # no effect under pytest 9: spread over workers, each built it again)
            Pass("the package", [py, *PYTEST, PACKAGE_TESTS]),
        ], Path(".test-integrations.log")),
    ]


def passes() -> dict[str, Pass]:
    """Every pass of every stream, by name."""
    return {step.name: step for stream in streams() for step in stream.passes}


def cpu_seconds() -> tuple[float, float] | None:
    """(busy, all) CPU seconds of the whole machine since it booted (/proc/stat), or None off Linux.
    The machine's, not the passes' own: Chromium's renderers outlive the processes that started
    them, so the passes' rusage misses most of their time (docs/tests.md)."""
    try:
        ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return None
    idle = ticks[3] + ticks[4]  # idle and iowait
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK"), sum(ticks) / os.sysconf("SC_CLK_TCK")


def busy_share(before: tuple[float, float] | None) -> str:
    """How busy the machine's CPUs were since `before`, e.g. "CPUs 97 % busy (2 cores)"."""
    after = cpu_seconds()
    if before is None or after is None or after[1] <= before[1]:
        return "CPU use unknown"
    return f"CPUs {100 * (after[0] - before[0]) / (after[1] - before[1]):.0f} % busy ({os.cpu_count()} cores)"


def main() -> int:
    os.chdir(ROOT)
    started, all_streams, cpu_before = time.monotonic(), streams(), cpu_seconds()
    print("make test: " + ", then ".join(step.name for step in all_streams[0].passes) + " below; beside them " +
          ", ".join(f"the {s.name} ({s.log})" for s in all_streams[1:]), flush=True)
    threads = [threading.Thread(target=s.run, args=(started,), daemon=True) for s in all_streams]
    for thread in threads:
        thread.start()
    try:
        while any(thread.is_alive() for thread in threads):
            time.sleep(0.5)
    except KeyboardInterrupt:
        for _ in range(2):  # again after the threads ended: a pass that started meanwhile
            for stream in all_streams:
                stream.stop()
            for thread in threads:
                thread.join(10)
        return 130
    for stream in all_streams[1:]:
        print(f"--- {stream.name} ({stream.log}):", flush=True)
        sys.stdout.write(stream.log.read_text(errors="replace"))
    print("--- passes: " + "; ".join(outcome for s in all_streams for outcome in s.outcomes) +
          f"; {busy_share(cpu_before)}", flush=True)
    return int(any(stream.failed for stream in all_streams))


if __name__ == "__main__":
    raise SystemExit(main())
