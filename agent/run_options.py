"""The options that `python -m agent run` shares with `play` (agent/play/): which tasks (--tasks),
the CRM's UI variant and the caller's (--ui-variant, --customer-variant), which server (--server,
--operator-token, --db) and the run folder (--out); each defined once here, with its parsing and
the server it names."""
from __future__ import annotations

import argparse
import contextlib

from crm_app.services.errors import InvalidInput
from scenarios.suites import SUITES, split_of
from scenarios.tasks import task_named
from scenarios.tasks.expert import SPLITS

from .crm.client import TOKEN_VARIABLE
from .episode.variants import DIMENSIONS
from .experiment.protocols import Protocol


def add_tasks(command: argparse.ArgumentParser) -> None:
    command.add_argument("--tasks", default="all", help="'all' or task names, comma-separated")
    command.add_argument("--split", choices=SPLITS,
                         help="only the tasks of this split, in a suite that has splits (expert; GET /api/suites)")


def add_variants(command: argparse.ArgumentParser) -> None:
    """--ui-variant and --customer-variant (episode/variants.py)."""
    for dimension in DIMENSIONS:
        command.add_argument(dimension.option, default="", metavar="K|random|all",
                             help=f"the {dimension.noun} ({dimension.defined_in}): a number, random (drawn from each "
                                  "scenario's seed) or all (every scenario in every variant); each is its own column")


def add_server(command: argparse.ArgumentParser) -> None:
    command.add_argument("--server", help="CRM base URL (default: an embedded server is started)")
    command.add_argument("--operator-token",
                         help=f"the --server's operator token, for the gold steps' values (default: {TOKEN_VARIABLE})")
    command.add_argument("--db", help="database URL for the embedded server (default: a temporary SQLite file)")


def add_out(command: argparse.ArgumentParser, default: str = "runs/latest") -> None:
    command.add_argument("--out", default=default, help="folder for trajectories, summary.csv and run.json")


def tasks(value: str, parser: argparse.ArgumentParser, protocol: Protocol, split: str | None = None) -> list[str]:
    """Canonical task names (aliases and any case accepted); an unknown one, or one the protocol
    does not have (or, with `split`, one outside that split), is a usage error. "all" is every task
    of the protocol (of the split)."""
    offered = _of_split(protocol, split, parser)
    if value.strip() == "all":
        return offered
    try:
        names = [task_named(name.strip()).name for name in value.split(",") if name.strip()]
    except InvalidInput as error:
        parser.error(f"--tasks: {error}")
    if not names:
        parser.error("--tasks names no task")
    outside = [name for name in names if name not in protocol.tasks]
    if outside:
        parser.error(f"--tasks: {', '.join(outside)} is not in the {protocol.name} protocol; "
                     f"its tasks: {', '.join(protocol.tasks)}")
    outside = [name for name in names if name not in offered]
    if outside:
        parser.error(f"--tasks: {', '.join(outside)} is not in the {split} split of the {protocol.name} suite")
    return list(dict.fromkeys(names))


def _of_split(protocol: Protocol, split: str | None, parser: argparse.ArgumentParser) -> list[str]:
    """The protocol's tasks, or those of one split of its suite."""
    if split is None:
        return list(protocol.tasks)
    suite = SUITES[protocol.suite]
    found = [name for name in protocol.tasks if split_of(suite, name) == split]
    if not found:
        parser.error(f"--split: the {protocol.name} suite has no splits (the expert suite has train and test)")
    return found


def variants(args, parser: argparse.ArgumentParser) -> dict[str, tuple[str, ...]]:
    """The variants --ui-variant and --customer-variant ask for, by field: ("",) for none, every
    one for `all`; anything else is a usage error naming the choices."""
    try:
        return {dimension.field: dimension.asked(getattr(args, dimension.field)) for dimension in DIMENSIONS}
    except ValueError as error:
        parser.error(str(error))


def variant_settings(args) -> dict[str, str]:
    """The variant options as given (`all`, `random`, a number), by field, for run.json."""
    return {dimension.field: getattr(args, dimension.field).strip() for dimension in DIMENSIONS
            if getattr(args, dimension.field).strip()}


def variant_argv(args) -> list[str]:
    """The variant options as given, as a command line's arguments (`--customer-variant 2`)."""
    return [part for dimension in DIMENSIONS if getattr(args, dimension.field).strip()
            for part in (dimension.option, getattr(args, dimension.field).strip())]


@contextlib.contextmanager
def server(args):
    """(URL, operator token, embedded?) of the given server, or of an embedded one on the given
    database or a temporary SQLite file (whose secrets stay in that temporary folder too)."""
    if args.server:
        yield args.server.rstrip("/"), args.operator_token, False
        return
    from scenarios.app import embedded_server

    with embedded_server(args.db) as embedded:
        yield embedded.url, embedded.app.config["OPERATOR_TOKEN"], True
