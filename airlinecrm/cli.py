"""The `airlinecrm` command: `airlinecrm serve | init-db` are this package's, `airlinecrm mcp` is
agent/mcp/'s server, `airlinecrm openenv` the OpenEnv server of integrations/openenv/ (the
airlinecrm-openenv package, in an environment of its own), and every other command is one of `python -m agent`'s (run, summarize,
report, ...), handed to its parser unchanged, so that a command added there is offered here too.
The agent's commands need the `agent` extra; without it they stop with a line saying so."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from crm_app.version import VERSION

from . import serve

EXTRA_HINT = "pip install 'airlinecrm[agent]'"
PROJECT_PACKAGES = ("crm_app", "scenarios", "agent", "airlinecrm")
PROG = "airlinecrm"


class MissingExtra(Exception):
    """An agent command was asked for, and a module of the agent extra is not installed."""


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    own = _own_commands()
    try:
        if command in own:
            return own[command][0](rest, f"{PROG} {command}")
        if command and not command.startswith("-"):
            return _agent_command(command, rest)
    except MissingExtra as missing:
        print(f"{PROG} {command}: {missing}", file=sys.stderr)
        return 1
    _top_parser(own).parse_args(argv)  # --help, --version, or a usage error; each exits
    return 2


def _own_commands() -> dict[str, tuple[Callable[[list[str], str], int], str]]:
    return {"serve": (serve.main, "serve the CRM (the options of run.py)"),
            "init-db": (serve.init_db, "create the database and its base data without serving"),
            "mcp": (_mcp, "serve one scenario as MCP tools (python -m agent.mcp; agent extra)"),
            "openenv": (_openenv, "serve AirlineCRM as an OpenEnv environment (the airlinecrm-openenv package)")}


def _mcp(argv: list[str], prog: str) -> int:
    try:
        from agent.mcp.__main__ import main as mcp_main
    except ModuleNotFoundError as error:
        raise _missing(error) from None
    return mcp_main(argv, prog=prog)


def _openenv(argv: list[str], prog: str) -> int:
    try:
        from airlinecrm_openenv.server import main as openenv_main
    except ModuleNotFoundError as error:
        raise MissingExtra(f"needs the airlinecrm-openenv package (no module named {error.name!r}): "
                           f"pip install -c integrations/openenv/constraints.txt -e integrations/openenv") from None
    return openenv_main(argv, prog=prog)


def _agent_command(command: str, rest: list[str]) -> int:
    cli = _agent_cli()
    if command not in cli.commands():
        _top_parser(_own_commands(), cli.commands()).parse_args([command])  # names the choices, exits 2
    return cli.main([command, *rest], prog=PROG)


def _agent_cli():
    """agent/__main__.py, imported; MissingExtra when the agent extra is not installed."""
    try:
        import agent.__main__ as cli
    except ModuleNotFoundError as error:
        raise _missing(error) from None
    return cli


def _missing(error: ModuleNotFoundError) -> Exception:
    if (error.name or "").split(".")[0] in PROJECT_PACKAGES:
        return error  # a broken install of this project, not a missing extra
    return MissingExtra(f"needs the agent extra (no module named {error.name!r}): {EXTRA_HINT}")


def _top_parser(own: dict, agent_commands: dict[str, str] | None = None) -> argparse.ArgumentParser:
    if agent_commands is None:
        agent_commands = _agent_commands_if_installed()
    epilog = (f"Each command's options: {PROG} COMMAND --help." if agent_commands else
              f"The agent's commands (run, summarize, report, ...) need the agent extra: {EXTRA_HINT}")
    parser = argparse.ArgumentParser(prog=PROG, epilog=epilog,
                                     description="AirlineCRM: the mock airline CRM, its scenarios and scoring, "
                                                 "and the agents that work it.")
    parser.add_argument("--version", action="version", version=f"{PROG} {VERSION}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, text) in own.items():
        commands.add_parser(name, help=text)
    for name, text in agent_commands.items():
        commands.add_parser(name, help=text)
    return parser


def _agent_commands_if_installed() -> dict[str, str]:
    try:
        return _agent_cli().commands()
    except MissingExtra:
        return {}
