"""Fixtures of the agent tests that several modules share."""
import contextlib
import io

import pytest

from agent.__main__ import main
from agent.env.browser_env import CrmEnv
from agent.experiment.protocols import PROTOCOLS
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
    """One environment per (suite, UI variant, call channel), kept open for the session: each keeps a
    page in its look, so that every episode after its first is a warm reset (a page load spared per
    episode). With a `channel` the environment has the protocol's options (the customer on the line)."""
    with contextlib.ExitStack() as stack:
        envs = {}

        def env(suite: str, variant: int, channel: str | None = None) -> CrmEnv:
            if (suite, variant, channel) not in envs:
                options = PROTOCOLS[suite].env_options(channel) if channel else {"suite": suite}
                envs[suite, variant, channel] = stack.enter_context(
                    CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, **options))
            return envs[suite, variant, channel]
        yield env
