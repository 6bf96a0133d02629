"""Command line: `python -m agent run ...` plays episodes; `python -m agent summarize --out DIR`
prints the table of what is already there."""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from .llm import DEFAULT_TEMPERATURE, LLMError
from .modes import DEFAULT_MODES, check_modes, describe_modes
from .policies import SHOT_NAMES, make_policy, methods, takes_shots
from .runner import RunStopped, plan, run_all
from .tasks import ALL_TASKS
from .summary import format_table, load_trajectories, summarize, write_csv


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    out = Path(args.out)
    if args.command == "run":
        tasks = list(ALL_TASKS) if args.tasks == "all" else [t.strip() for t in args.tasks.split(",") if t.strip()]
        chosen = [m.strip() for m in args.method.split(",") if m.strip()]
        unknown = [m for m in chosen if m not in methods()]
        if unknown:
            parser.error(f"unknown method {', '.join(unknown)}; known: {', '.join(methods())}")
        shot_settings = _shot_settings(args.shots, parser)
        options = _policy_options(args)
        variants = _variants(chosen, shot_settings)
        try:
            observations = check_modes(args.observations.split(","))
            for method, shots in variants:  # fail now, with a clear message, on a missing key or model
                make_policy(method, shots=shots, observations=observations, **options)
        except (LLMError, ValueError) as error:
            parser.error(str(error))
        specs = [spec for method, shots in variants
                 for spec in plan(method, tasks, args.episodes, args.seed, args.trials, shots, observations)]
        try:
            with _server(args.server, args.db) as url:
                run_all(specs, url, out, args.concurrency, args.max_steps, progress=not args.quiet,
                        policy_options=options)
        except RunStopped as stopped:
            _print_summary(out)
            print(f"\nThe run stopped: {stopped}\nFinished episodes are kept in {out}; "
                  "the same command resumes the run.", file=sys.stderr)
            return 1
    _print_summary(out)
    return 0


def _print_summary(out: Path) -> None:
    rows = summarize(load_trajectories(out))
    write_csv(rows, out / "summary.csv")
    print(format_table(rows) if rows else f"No complete trajectories under {out}.")


def _shot_settings(value: str, parser: argparse.ArgumentParser) -> list[str]:
    settings = list(dict.fromkeys(s.strip() for s in value.split(",") if s.strip()))
    wrong = [s for s in settings if s not in SHOT_NAMES]
    if wrong or not settings:
        parser.error(f"--shots takes 0, few or 0,few; not {value!r}")
    return settings


def _variants(chosen: list[str], shot_settings: list[str]) -> list[tuple[str, str]]:
    """(method, shots) pairs to run: every shots setting for an LLM method, one run of the others."""
    return [(method, shots) for method in chosen
            for shots in (shot_settings if takes_shots(method) else shot_settings[:1])]


def _policy_options(args) -> dict:
    """What the LLM policies need (the oracle ignores them); the key comes from OPENAI_API_KEY."""
    return {"model": args.model, "base_url": args.base_url, "cache_dir": args.cache_dir,
            "temperature": args.temperature}


@contextlib.contextmanager
def _server(url: str | None, db: str | None):
    """The given server, or an embedded one on the given database or a temporary SQLite file."""
    if url:
        yield url.rstrip("/")
        return
    from crm_app.server import embedded_server

    with embedded_server(db) as server:
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
                     help="chat model for flat, step and heap (default: OPENAI_MODEL); required for them")
    run.add_argument("--base-url", help="OpenAI-compatible endpoint (default: OPENAI_BASE_URL, else OpenAI)")
    run.add_argument("--shots", default="0",
                     help="0 (zero-shot), few (few-shot) or 0,few (both, as separate columns)")
    run.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE,
                     help=f"sampling temperature (default {DEFAULT_TEMPERATURE}, as in the papers)")
    run.add_argument("--cache-dir", help="on-disk response cache; a rerun is replayed from it")
    run.add_argument("--observations", default=",".join(DEFAULT_MODES),
                     help="observation modes, comma-separated (default elements); an image mode makes flat "
                          "send the image to the model: " + "; ".join(describe_modes().splitlines()))
    summary = commands.add_parser("summarize", help="print the table for the trajectories in --out")
    summary.add_argument("--out", default="runs/latest")
    return parser


if __name__ == "__main__":
    sys.exit(main())
