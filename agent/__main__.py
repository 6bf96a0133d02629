"""Command line: `python -m agent run ...` plays episodes; `python -m agent summarize --out DIR`
prints the table of what is already there; `python -m agent report DIR` writes its HTML report;
`python -m agent memory build|show` makes and shows Synapse's exemplar memory."""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import webbrowser
from pathlib import Path

from .llm import DEFAULT_TEMPERATURE, LLMError
from .memory import cli as memory_cli
from .policies import SHOT_NAMES, make_policy, methods, shot_settings, webwise_auto
from .recording import TRACE_MODES
from .runner import RunStopped, plan, run_all
from .tasks import ALL_TASKS
from .summary import format_table, load_trajectories, summarize, write_csv


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "memory":
        return memory_cli.main(args, parser)
    out = Path(args.out)
    if args.command == "report":
        return _report(out, args.prices, args.open, parser)
    if args.command == "run":
        tasks = list(ALL_TASKS) if args.tasks == "all" else [t.strip() for t in args.tasks.split(",") if t.strip()]
        chosen = [m.strip() for m in args.method.split(",") if m.strip()]
        unknown = [m for m in chosen if m not in methods()]
        if unknown:
            parser.error(f"unknown method {', '.join(unknown)}; known: {', '.join(methods())}")
        if args.auto_trials < 1:
            parser.error("--auto-trials takes a number of trials per task, 1 or more")
        settings = _shot_settings(args.shots, parser)
        options = _policy_options(args)
        variants = _variants(chosen, settings, parser)
        try:
            for method, shots in variants:  # fail now, with a clear message, on a missing key or model
                make_policy(method, shots=shots, **options)
        except (LLMError, ValueError) as error:
            parser.error(str(error))
        specs = [spec for method, shots in variants
                 for spec in plan(method, tasks, args.episodes, args.seed, args.trials, shots)]
        try:
            with _server(args.server, args.db) as url:
                if ("webwise", "auto") in variants:  # its examples come from its own zero-shot trials first
                    webwise_auto.prepare(tasks, url, out, args.auto_trials, args.concurrency, args.max_steps,
                                         progress=not args.quiet, policy_options=options)
                run_all(specs, url, out, args.concurrency, args.max_steps, progress=not args.quiet,
                        policy_options=options, recording={"screenshots": args.screenshots, "trace": args.trace})
        except RunStopped as stopped:
            _print_summary(out)
            _report(out)
            print(f"\nThe run stopped: {stopped}\nFinished episodes are kept in {out}; "
                  "the same command resumes the run.", file=sys.stderr)
            return 1
    _print_summary(out)
    if args.command == "run":
        _report(out)
    return 0


def _report(out: Path, prices: str | None = None, open_it: bool = False, parser=None) -> int:
    """Write OUT/report/ (agent/report/) and say where it is."""
    from .report import PriceError, ReportError, write_report  # matplotlib loads only when needed

    try:
        index = write_report(out, prices)
    except (ReportError, PriceError) as error:
        if parser is None:
            raise
        parser.error(str(error))
    print(f"Report: {index}", file=sys.stderr)
    if open_it and not webbrowser.open(index.resolve().as_uri()):
        print("No browser could be opened; open the file above.", file=sys.stderr)
    return 0


def _print_summary(out: Path) -> None:
    rows = summarize(load_trajectories(out))
    write_csv(rows, out / "summary.csv")
    print(format_table(rows) if rows else f"No complete trajectories under {out}.")


def _shot_settings(value: str, parser: argparse.ArgumentParser) -> list[str]:
    settings = list(dict.fromkeys(s.strip() for s in value.split(",") if s.strip()))
    wrong = [s for s in settings if s not in SHOT_NAMES]
    if wrong or not settings:
        parser.error(f"--shots takes 0, few or 0,few (webwise also auto); not {value!r}")
    return settings


def _variants(chosen: list[str], settings: list[str], parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """(method, shots) pairs to run: each shots setting a method takes, one run of the oracle."""
    variants = []
    for method in chosen:
        takes = shot_settings(method)
        mine = [shots for shots in settings if shots in takes] if takes else settings[:1]
        if not mine:
            parser.error(f"{method} takes --shots {' or '.join(takes)}, not {','.join(settings)}")
        variants += [(method, shots) for shots in mine]
    return variants


def _policy_options(args) -> dict:
    """What the LLM policies need (the oracle ignores them); the key comes from OPENAI_API_KEY."""
    return {"model": args.model, "base_url": args.base_url, "cache_dir": args.cache_dir,
            "temperature": args.temperature, "embedding_model": args.embedding_model,
            "memory": args.memory, "run_dir": args.out}


@contextlib.contextmanager
def _server(url: str | None, db: str | None):
    """The given server, or an embedded one on the given database or a temporary SQLite file."""
    if url:
        yield url.rstrip("/")
        return
    from crm_app import create_app
    from crm_app.server import BackgroundServer

    with tempfile.TemporaryDirectory(prefix="airlinecrm-") as folder:
        app = create_app({"DATABASE_URL": db or f"sqlite:///{Path(folder) / 'crm.db'}"})
        with BackgroundServer(app) as server:
            yield server.url


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m agent")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="play episodes and print the summary table")
    run.add_argument("--method", default="oracle", help=f"one or more of {', '.join(methods())}, comma-separated")
    run.add_argument("--tasks", default="all", help="'all' or task names, comma-separated")
    run.add_argument("--episodes", type=int, default=20, help="scenarios per task")
    run.add_argument("--trials", type=int, default=1, help="plays per scenario; k > 1 reports pass^k")
    run.add_argument("--seed", type=int, default=0, help="seed of the first scenario of each task")
    run.add_argument("--concurrency", type=int, default=1, help="parallel workers, each with its own browser")
    run.add_argument("--max-steps", type=int, default=60)
    run.add_argument("--server", help="CRM base URL; without it an embedded server is started")
    run.add_argument("--db", help="database URL for the embedded server (default: a temporary SQLite file)")
    run.add_argument("--out", default="runs/latest", help="folder for trajectories and summary.csv")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument("--model", default=os.environ.get("OPENAI_MODEL"),
                     help="chat model of the LLM methods (default: OPENAI_MODEL); required for them")
    run.add_argument("--base-url", help="OpenAI-compatible endpoint (default: OPENAI_BASE_URL, else OpenAI)")
    run.add_argument("--shots", default="0",
                     help="0 (zero-shot), few (few-shot) or 0,few (both, as separate columns); webwise also "
                          "takes auto (examples from its own successful zero-shot trials)")
    run.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE,
                     help=f"sampling temperature (default {DEFAULT_TEMPERATURE}, as in the papers)")
    run.add_argument("--cache-dir", help="on-disk response cache; a rerun is replayed from it")
    run.add_argument("--memory", metavar="MEMORY_DIR",
                     help="synapse few-shot: the exemplar memory to retrieve from (python -m agent memory build)")
    run.add_argument("--embedding-model", default=os.environ.get("OPENAI_EMBEDDING_MODEL"),
                     help="synapse: embedding model of the /embeddings route for retrieval (default: "
                          "OPENAI_EMBEDDING_MODEL); without one, retrieval ranks by BM25")
    run.add_argument("--auto-trials", type=int, default=10,
                     help="webwise --shots auto: zero-shot trials per task to take examples from (default 10)")
    run.add_argument("--screenshots", action="store_true",
                     help="save a small JPEG of the page after every step, for the report")
    run.add_argument("--trace", choices=TRACE_MODES,
                     help="save a Playwright trace (zip) of the failed or of all episodes; "
                          "`playwright show-trace FILE` replays it")
    summary = commands.add_parser("summarize", help="print the table for the trajectories in --out")
    summary.add_argument("--out", default="runs/latest")
    report = commands.add_parser("report", help="write OUT/report/index.html: charts, tables, every episode step by step")
    report.add_argument("out", metavar="OUT", help="a run folder (finished or not)")
    report.add_argument("--open", action="store_true", help="open the report in the default browser")
    report.add_argument("--prices", metavar="FILE",
                        help='JSON of US dollars per million tokens per model, e.g. {"gpt-4o": {"prompt": 2.5, '
                             '"completion": 10}}; without it the report shows tokens only')
    memory_cli.add_parser(commands)
    return parser


if __name__ == "__main__":
    sys.exit(main())
