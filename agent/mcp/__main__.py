"""Command line of the MCP server:

    python -m agent.mcp --server http://127.0.0.1:5000 --scenario <id>          # stdio
    python -m agent.mcp --server URL --new-scenario TASK_CANCEL_FLIGHT --seed 7  # makes the scenario
    python -m agent.mcp --server URL --scenario <id> --transport http --port 8765
                                                  # streamable HTTP at http://127.0.0.1:8765/mcp

Over stdio, standard output carries the protocol and nothing else: what the server has to say
(the scenario it made, where it listens, problems) goes to standard error. Exit status 2 for a
wrong command line, an unknown scenario or task; 1 when the CRM server cannot be used.
"""
from __future__ import annotations

import argparse
import logging
import sys
import urllib.parse

import anyio

from crm_app.http_client import http_sender
from scenarios.suites import SUITES, has_knowledge_base

from ..crm.tools import SCENARIO_HEADER, ScenarioTools, ToolsUnavailable, unreachable
from .server import POLICY_URI, TASK_PROMPT, evaluate_url, make_server, scenario_uri

DEFAULT_SERVER = "http://127.0.0.1:5000"
DEFAULT_PORT = 8765
HOST = "127.0.0.1"  # the HTTP transport listens on this machine only
PATH = "/mcp"


class Refused(Exception):
    """The CRM refused what the command line asked for (exit status 2) or cannot be reached (1)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def main(argv: list[str] | None = None, prog: str = "python -m agent.mcp") -> int:
    parser = _parser(prog)
    args = parser.parse_args(argv)
    _check(args, parser)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(name)s: %(message)s")
    server_url = args.server.rstrip("/")
    try:
        scenario = _new_scenario(server_url, args) if args.new_scenario else None
        scenario_id, suite = _existing_scenario(server_url, scenario["id"] if scenario else args.scenario)
        tools = ScenarioTools(server_url, scenario_id, on_call=_on_call(suite), knowledge_base=has_knowledge_base(suite))
    except Refused as refused:
        print(refused, file=sys.stderr)
        return refused.status
    except ToolsUnavailable as error:
        print(error, file=sys.stderr)
        return 1
    _announce(tools, scenario, args)
    server = make_server(tools, scenario)
    try:
        anyio.run(_serve_http if args.transport == "http" else _serve_stdio, server, args.port)
    except KeyboardInterrupt:
        pass
    return 0


async def _serve_stdio(server, _port: int) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


async def _serve_http(server, port: int) -> None:
    import uvicorn

    app = server.streamable_http_app(streamable_http_path=PATH, host=HOST)
    await uvicorn.Server(uvicorn.Config(app, host=HOST, port=port, log_level="warning")).serve()


def _new_scenario(server_url: str, args) -> dict:
    query = urllib.parse.urlencode({k: v for k, v in {"task": args.new_scenario, "seed": args.seed,
                                                      "suite": args.suite}.items() if v is not None})
    status, body = _get(server_url, f"/generate-random-scenario?{query}")
    if status != 200:
        raise Refused(f"The CRM did not make the scenario ({status}): {body.get('error', body)}", 2)
    return body


def _existing_scenario(server_url: str, scenario_id: str) -> tuple[str, str | None]:
    """The id and the scenario's suite, once the CRM confirms the scenario exists."""
    status, body = _get(server_url, "/api/config", {SCENARIO_HEADER: scenario_id})
    if status != 200:
        raise Refused(f"Scenario {scenario_id!r} cannot be used ({status}): {body.get('error', body)}", 2)
    return scenario_id, body.get("scenario_suite")


def _on_call(suite: str | None) -> bool:
    """Whether a customer is on the line in the suite's scenarios: the tools then include speaking to them."""
    return bool(suite in SUITES and SUITES[suite].hidden_details)


def _get(server_url: str, path: str, headers: dict | None = None) -> tuple[int, dict]:
    try:
        return http_sender(server_url)("GET", path, headers=headers)
    except OSError as error:  # urllib's URLError among them
        raise Refused(f"The {unreachable(server_url, error)}", 1) from None


def _announce(tools: ScenarioTools, scenario: dict | None, args) -> None:
    """What a person starting the server needs to know, on standard error."""
    lines = [f"AirlineCRM MCP server: {len(tools.tools)} tools on scenario {tools.scenario_id} of {tools.server_url}"]
    if scenario:
        # a suite that hides its details (hard, expert) answers anyone but the operator without them
        seed = scenario.get("seed", args.seed)
        lines += [f"Made scenario {scenario['id']} ({scenario.get('scenario') or args.new_scenario}"
                  f"{'' if seed is None else f', seed {seed}'}): {scenario['instruction']}",
                  f"Its task: prompt '{TASK_PROMPT}', resource {scenario_uri(scenario['id'])}"]
    lines.append(f"Policy: resource {POLICY_URI}. Score: {evaluate_url(tools)}")
    if args.transport == "http":
        lines.append(f"Serving MCP over streamable HTTP at http://{HOST}:{args.port}{PATH}  (Ctrl+C to stop)")
    print("\n".join(lines), file=sys.stderr, flush=True)


def _check(args, parser: argparse.ArgumentParser) -> None:
    if bool(args.scenario) == bool(args.new_scenario):
        parser.error("give --scenario ID (an existing scenario) or --new-scenario TASK (make one), not both")
    if args.seed is not None and not args.new_scenario:
        parser.error("--seed goes with --new-scenario")
    if args.suite and not args.new_scenario:
        parser.error("--suite goes with --new-scenario")
    if args.port is not None and args.transport != "http":
        parser.error("--port goes with --transport http")
    args.port = DEFAULT_PORT if args.port is None else args.port
    if not 0 < args.port < 65536:
        parser.error(f"--port must be from 1 to 65535, not {args.port}")


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Serve the CRM's JSON API as MCP tools bound to one scenario, so that any MCP client can "
                    "work it; GET /evaluate?scenario=ID scores the result.")
    parser.add_argument("--server", default=DEFAULT_SERVER,
                        help=f"base URL of the CRM (default: {DEFAULT_SERVER}, where make run serves it)")
    parser.add_argument("--scenario", metavar="ID", help="the scenario to work (an id from /generate-random-scenario)")
    parser.add_argument("--new-scenario", metavar="TASK",
                        help="make a scenario of this task (e.g. TASK_CANCEL_FLIGHT) and offer its instruction as "
                             f"the MCP prompt '{TASK_PROMPT}' and a resource")
    parser.add_argument("--seed", type=int, help="with --new-scenario: the scenario's seed (default: a random one)")
    parser.add_argument("--suite", choices=tuple(SUITES), help="with --new-scenario: the scenario suite "
                                                                   "(default: the server's)")
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                        help=f"stdio (default), or streamable HTTP at http://{HOST}:PORT{PATH}")
    parser.add_argument("--port", type=int, help=f"with --transport http: the port (default {DEFAULT_PORT})")
    return parser


if __name__ == "__main__":
    sys.exit(main())
