"""Fixtures of the agent tests that several modules share."""
import contextlib
import io

import pytest

from agent.__main__ import main
from agent.env.browser_env import CrmEnv
from tests.conftest import OPERATOR_TOKEN

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


@pytest.fixture(scope="session")
def env_of(live_server, browser):
    """One environment per (suite, UI variant), kept open for the session: each keeps a page in its
    look, so that every episode after its first is a warm reset (a page load spared per episode)."""
    with contextlib.ExitStack() as stack:
        envs = {}

        def env(suite: str, variant: int) -> CrmEnv:
            if (suite, variant) not in envs:
                envs[suite, variant] = stack.enter_context(
                    CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, suite=suite))
            return envs[suite, variant]
        yield env
