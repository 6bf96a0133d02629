"""`python -m agent.examples check|refresh [--prompts DIR] [NAME ...]` and `python -m agent.examples page TASK SEED [ACTION ...]`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..crm.client import ServerError
from ..policies.prompting import PROMPTS
from .files import FORMATS, PageSource, ProvenanceError, Scenario, example_names, load
from .render import difference, render_files
from .replay import Replayer, example_server


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "page":
            return _page(args)
        return _files(args)
    except (ProvenanceError, ServerError) as error:  # a provenance that does not fit, a task the CRM does not know
        print(f"error: {error}", file=sys.stderr)
        return 2


def _files(args) -> int:
    names = example_names(args.prompts)
    unknown = sorted(set(args.names) - set(names))
    if unknown:
        print(f"error: no example file {', '.join(unknown)} under {args.prompts}; there are {', '.join(names)}",
              file=sys.stderr)
        return 2
    files = [load(name, args.prompts) for name in args.names or names]
    with example_server() as server, _replayer(server) as replayer:
        texts = render_files(files, replayer)
    print(f"replayed {sum(len(e.pages) for f in files for e in f.examples)} example pages in {replayer.episodes} "
          f"episodes of {replayer.actions} actions")
    diffs = {file.name: difference(file, texts[file.name]) for file in files}
    stale = [file for file in files if diffs[file.name]]
    for file in stale:
        if args.command == "refresh":
            file.path.write_text(texts[file.name])
            print(f"refreshed {file.path}")
        else:
            print(diffs[file.name])
    if args.command == "refresh":
        print(f"{len(stale)} of {len(files)} example files changed; now read the changed pages and fix what the "
              "examples say about them (reasons, actions, plans, states, programs)")
        return 0
    print(f"{len(files) - len(stale)} of {len(files)} example files show the CRM's pages as it renders them today"
          + (f"; refresh the others: python -m agent.examples refresh{_folder(args)} {' '.join(f.name for f in stale)}"
             if stale else ""))
    return 1 if stale else 0


def _folder(args) -> str:
    return "" if args.prompts == PROMPTS else f" --prompts {args.prompts}"


def _page(args) -> int:
    scenario = Scenario(FORMATS[args.format].protocol, args.task, args.seed)
    with example_server() as server, _replayer(server, progress=False) as replayer:
        (page,) = replayer.pages([PageSource(scenario, tuple(args.actions))]).values()
        print(f"TASK: {replayer.instructions[scenario]}")
        print(FORMATS[args.format].shown(page.text))
        if page.booked:
            print(f"(the actions booked a flight; the CRM drew the code {page.booked} for it this time)")
    return 0


def _replayer(server, progress: bool = True) -> Replayer:
    return Replayer(server.url, operator_token=server.app.config["OPERATOR_TOKEN"], progress=progress)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m agent.examples", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("check", "replay every provenance; print how the files differ from today's pages (exit 1 if they do)"),
                       ("refresh", "replay every provenance and write today's pages and task lines into the files")):
        command = commands.add_parser(name, help=text, description=text)
        command.add_argument("names", nargs="*", metavar="NAME",
                             help="example files under the prompts folder without .txt, e.g. heap/planner_examples "
                                  "(default: all)")
        command.add_argument("--prompts", type=Path, default=PROMPTS, metavar="DIR",
                             help="the folder of the example files (default: agent/policies/prompts)")
    page = commands.add_parser("page", help="print the page a scenario shows after some actions",
                               description="print the task and the page a scenario shows after the actions")
    page.add_argument("task", help="e.g. TASK_BOOK_FLIGHT")
    page.add_argument("seed", type=int)
    page.add_argument("actions", nargs="*", metavar="ACTION", help='in the action grammar, e.g. \'TYPE 10 "SEA"\'')
    page.add_argument("--format", choices=[f for f in FORMATS if f != "webwise"], default="elements",
                      help="elements: the full protocol's observation; synapse: the same without the ERROR line; "
                           "paper: the paper protocol's scenario and observation")
    return parser


if __name__ == "__main__":
    sys.exit(main())
