"""`make test`: the test passes in five streams at once, each stream's passes one after the other.

    python tests/run_streams.py        # the venvs' interpreters from PY, BG_PY, CUBE_PY, OE_PY, VF_PY

The integrations' four environments are built (`make integrations`, nothing to do when they are up
to date) as the first pass of the BrowserGym stream, so that on a fresh machine those installs run
beside the first three streams instead of before them all; the OpenEnv stream starts once they are
built (its tests build the project's wheel, which an editable install of it must not meet halfway).

Streams side by side keep every core busy (a pass alone waits on its browser and server part of
the time). The first stream prints as it goes; each other's output goes to its log and is printed
after it, with the minute each stream ended at and how busy the machine's CPUs were meanwhile
(near 100 %: the suite is CPU-bound and only less work shortens it; tests/cpu_cost.py says which
tests cost what, docs/tests.md). The
streams share no files or ports: each pytest worker has its own temporary folder, servers and
PostgreSQL cluster. Exits 1 when any pass failed, 130 on Ctrl-C (every pass stopped).
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


@dataclass
class Stream:
    name: str
    passes: list[tuple[dict, list[str]]]  # (extra environment, command), one after the other
    log: Path | None  # None: the terminal
    after: Stream | None = None  # a stream whose first pass must pass before this one starts
    failed: bool = False
    ended_s: float | None = None
    process: subprocess.Popen | None = field(default=None, repr=False)
    first_pass_over: threading.Event = field(default_factory=threading.Event, repr=False)
    first_pass_ok: bool = False

    def run(self, started: float) -> None:
        """Each pass in turn, until one fails (none when the stream it comes after failed its first)."""
        out = self.log.open("w") if self.log else None
        try:
            if self.after is not None and not self.after.first_pass_passed():
                print(f"not run: the {self.after.name} stream's first pass failed", file=out, flush=True)
                self.failed = True
                return
            for number, (env, command) in enumerate(self.passes):
                self.process = subprocess.Popen(command, env=pass_environment(env), stdout=out,
                                                stderr=subprocess.STDOUT if out else None, start_new_session=True)
                passed = self.process.wait() == 0
                if number == 0:
                    self.first_pass_ok = passed
                    self.first_pass_over.set()
                if not passed:
                    self.failed = True
                    break
        finally:
            self.first_pass_over.set()
            self.ended_s = time.monotonic() - started
            if out:
                out.close()

    def first_pass_passed(self) -> bool:
        """Whether its first pass passed, once it is over."""
        self.first_pass_over.wait()
        return self.first_pass_ok


def pass_environment(extra: dict) -> dict:
    """This process's environment and `extra`, with bytecode caching on: where PYTHONDONTWRITEBYTECODE
    is set, every pytest process rewrote the asserts of every test module again (7 of a collection's
    14 CPU-s); with it unset the first one caches them (`__pycache__`, ignored by git)."""
    return {key: value for key, value in {**os.environ, **extra}.items() if key != "PYTHONDONTWRITEBYTECODE"}


def built(target: str) -> tuple[dict, list[str]]:
    """The pass that builds environments (a Makefile target), where they are out of date."""
    return {}, [os.environ.get("MAKE", "make"), "--no-print-directory", "-s", target]


def workers(per_core: float) -> str:
    """pytest-xdist workers for a pass: `per_core` of them per CPU core, at least one. The streams
    run in sessions of their own, which Linux's scheduler (autogroup) gives equal shares of the
    CPUs whatever their number of processes: more workers than a stream needs to keep the cores
    busy once it runs alone only add their set-up and contention (docs/tests.md)."""
    return str(max(1, round(per_core * (os.cpu_count() or 1))))


def streams() -> list[Stream]:
    py, bg, cube, oe, vf = (os.environ.get(name, default) for name, default in (
        ("PY", ".venv/bin/python"), ("BG_PY", ".venv-browsergym/bin/python"), ("CUBE_PY", ".venv-cube/bin/python"),
        ("OE_PY", ".venv-openenv/bin/python"), ("VF_PY", ".venv-verifiers/bin/python")))
    integrations = Stream("BrowserGym and CUBE", [built("integrations"),
                                                  ({}, [bg, *PYTEST, "integrations/browsergym/tests"]),
                                                  ({}, [cube, *PYTEST, "integrations/cube/tests"])],
                          Path(".test-browsergym-cube.log"))
    return [
        # everything on SQLite but the long sweeps; a test file stays on one worker (its module fixtures made once)
        Stream("SQLite", [({}, [py, "-m", "pytest", "-q", "-n", workers(1), "--dist", "loadfile", "-m", "not beside"])], None),
        # the API and scenario tests that use a database (the others would run as they do on SQLite)
        Stream("PostgreSQL", [({"CRM_TEST_DATABASE": "postgresql"},
                               [py, *PYTEST, "-n", workers(0.5), "--dist", "loadfile", "-m", "not database_independent",
                                "--only-database-tests", "tests/api", "tests/scenarios"])], Path(".test-postgresql.log")),
        # the long browser sweeps, on SQLite
        Stream("beside", [({}, [py, *PYTEST, "-n", workers(1), "-m", "beside", *BESIDE_FILES])],
               Path(".test-beside.log")),
        integrations,
        # the package built and installed once, in one process (pytest-xdist 3.8's xdist_group has
        # no effect under pytest 9: spread over workers, each built it again), in the lightest stream
        Stream("OpenEnv, verifiers and the package", [({}, [oe, *PYTEST, "integrations/openenv/tests"]),
                                                      ({}, [vf, *PYTEST, "integrations/verifiers/tests"]),
                                                      ({}, [py, *PYTEST, PACKAGE_TESTS])],
               Path(".test-openenv-verifiers.log"), after=integrations),
    ]


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
    print("make test: the SQLite pass below; beside it " +
          ", ".join(f"{s.name} ({s.log})" for s in all_streams[1:]), flush=True)
    threads = [threading.Thread(target=s.run, args=(started,), daemon=True) for s in all_streams]
    for thread in threads:
        thread.start()
    try:
        while any(thread.is_alive() for thread in threads):
            time.sleep(0.5)
    except KeyboardInterrupt:
        for stream in all_streams:
            if stream.process and stream.process.poll() is None:
                os.killpg(stream.process.pid, signal.SIGTERM)
        return 130
    for stream in all_streams[1:]:
        print(f"--- {stream.name} ({stream.log}):", flush=True)
        sys.stdout.write(stream.log.read_text(errors="replace"))
    print("--- streams: " + "; ".join(f"{s.name} {'FAILED' if s.failed else 'passed'}, ended at "
                                      f"{s.ended_s / 60:.1f} min" for s in all_streams) + f"; {busy_share(cpu_before)}",
          flush=True)
    return int(any(stream.failed for stream in all_streams))


if __name__ == "__main__":
    raise SystemExit(main())
