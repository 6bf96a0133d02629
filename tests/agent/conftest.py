"""Fixtures of the agent tests that several modules share."""
import contextlib
import io

import pytest

from agent.__main__ import main

ORACLE_ON_EVERY_TASK = ["run", "--method", "oracle", "--tasks", "all", "--episodes", "1", "--quiet"]


@pytest.fixture(scope="session")
def serial_oracle_run(tmp_path_factory, live_server):
    """The oracle on every task, one episode at a time: (its folder, what it printed), for runs that
    play the same episodes another way to be compared with."""
    out = tmp_path_factory.mktemp("serial-oracle")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main([*ORACLE_ON_EVERY_TASK, "--server", live_server, "--out", str(out)]) == 0
    return out, printed.getvalue()
