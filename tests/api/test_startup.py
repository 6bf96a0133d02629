"""Servers started at the same moment on a new database all come up, and the data they make
is there once: the schema, 40 airports and the sandbox bookings."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[2]

# Each process imports the app, says it is ready, then waits for the same "go" file to start it.
START = """
import pathlib, sys, time
from scenarios.app import create_app
folder = pathlib.Path(sys.argv[1])
(folder / f"ready{sys.argv[2]}").touch()
while not (folder / "go").exists():
    time.sleep(0.001)
app = create_app({"DATABASE_URL": sys.argv[3], "SANDBOX_BOOKINGS": 12})
print(app.test_client().get("/api/config").status_code)
"""


def test_three_servers_started_at_once_on_a_new_database_all_come_up(database_url, tmp_path):
    processes = [subprocess.Popen([sys.executable, "-c", START, str(tmp_path), str(i), database_url], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(3)]
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("ready*"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    (tmp_path / "go").touch()
    results = [process.communicate(timeout=120) for process in processes]
    for process, (out, err) in zip(processes, results):
        assert process.returncode == 0, err[-2000:]
        assert out.strip() == "200"
    engine = create_engine(database_url)
    with engine.connect() as connection:
        count = lambda query: connection.execute(text(query)).scalar_one()  # noqa: E731
        assert count("SELECT count(*) FROM airports") == 40
        assert count("SELECT count(*) FROM bookings WHERE dataset = 'sandbox'") == 12
        assert count("SELECT count(DISTINCT code) FROM bookings") == 12
    engine.dispose()
