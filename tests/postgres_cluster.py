"""A throw-away PostgreSQL server: a new cluster (initdb) in a temporary folder, served on a free
loopback port, stopped and removed at the end. The tests and the benchmarks run PostgreSQL on it.

It uses Debian's `postgresql` package (the Makefile installs it). PostgreSQL refuses to run as
root, so as root the cluster belongs to the `postgres` user that the package creates and every
command runs as that user; as anyone else it runs as yourself.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "postgres"
# Settings a throw-away cluster may take: no crash safety, so no waiting on the disk.
FAST_UNSAFE = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
# What a production server on one machine would set too: commits are not flushed one by one (as
# SQLite's WAL mode with synchronous=NORMAL, which the server uses); a crash loses at most the
# last moments, never consistency.
DURABLE_ENOUGH = {"synchronous_commit": "off"}


class ClusterError(RuntimeError):
    pass


def binaries() -> Path:
    """The folder of initdb and pg_ctl: `pg_config --bindir`, else the newest /usr/lib/postgresql/*/bin."""
    candidates = []
    if shutil.which("pg_config"):
        found = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True)
        candidates.append(found.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists():
            return Path(folder)
    raise ClusterError("PostgreSQL's server programs (initdb) are not installed: "
                       "apt-get install -y postgresql (make test does this as root)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class TemporaryCluster:
    """`with TemporaryCluster() as cluster:` a running server; `cluster.create_database(name)`
    gives a SQLAlchemy URL of a new empty database on it."""

    def __init__(self, settings: dict | None = None, max_connections: int = 300):
        self.settings = {"max_connections": str(max_connections), **(FAST_UNSAFE if settings is None else settings)}
        self.bin = binaries()
        self.folder: Path | None = None
        self.port: int | None = None
        self._user = SUPERUSER if os.geteuid() == 0 else None

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def start(self) -> TemporaryCluster:
        self.folder = Path(tempfile.mkdtemp(prefix="crm-postgres-"))
        try:
            if self._user:
                account = pwd.getpwnam(self._user)
                os.chown(self.folder, account.pw_uid, account.pw_gid)
            self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8",
                      "--locale=C.UTF-8", "--no-sync")
            self._serve()
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        return self

    def _serve(self, attempts: int = 3) -> None:
        for attempt in range(1, attempts + 1):
            self.port = free_port()  # another program may take it before the server does: try again
            options = " ".join([f"-p {self.port}", f"-k {self.folder}", "-c listen_addresses=127.0.0.1",
                                *(f"-c {name}={value}" for name, value in self.settings.items())])
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-o", options,
                          "-w", "-t", "60", "start")
                return
            except ClusterError:
                if attempt == attempts:
                    raise

    def stop(self) -> None:
        if self.folder is None:
            return
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self._user:
            command = ["runuser", "-u", self._user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder)
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise ClusterError(f"{program} failed ({done.returncode}): {done.stderr[-2000:]}{done.stdout[-1000:]}{tail}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def execute(self, statement: str) -> None:
        """Run one statement as the superuser outside a transaction (CREATE/DROP DATABASE)."""
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user={SUPERUSER} dbname=postgres",
                             autocommit=True) as connection:
            connection.execute(statement)

    def create_database(self, name: str) -> str:
        # FILE_COPY copies the small template faster than logging it block by block.
        self.execute(f'CREATE DATABASE "{name}" STRATEGY FILE_COPY')
        return self.url(name)

    def __enter__(self) -> TemporaryCluster:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

