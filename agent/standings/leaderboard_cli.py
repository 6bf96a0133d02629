"""`python -m agent leaderboard RUN... --out DIR`: the runs (folders or exported datasets, every
label of each) ranked on one static page, DIR/index.html, with the report's look and assets and
DIR/leaderboard.csv; each run links its own report (OUT/report/index.html, which every `run`
writes) or, for a dataset, its card."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..episode.run_folder import REPORT
from ..results.leaderboard import CSV_FIELDS, Entry, columns, csv_rows, groups, rank, split_note
from ..results.summary import VIOLATION_RATES, had_times, had_violations, write_csv
from ..results.table import describe_intervals, format_leaderboard
from .sources import Source, SourceError, read_sources

PAGE, TABLE = "index.html", "leaderboard.csv"


def add_parser(commands) -> None:
    command = commands.add_parser("leaderboard", help="rank runs on one static HTML page, with intervals")
    command.add_argument("runs", nargs="+", metavar="RUN",
                         help="run folders or exported datasets (python -m agent export run), PATH or PATH:LABEL; "
                              "each label of a folder is a row")
    command.add_argument("--out", required=True, metavar="DIR", help=f"writes DIR/{PAGE} and DIR/{TABLE}")
    command.add_argument("--prices", metavar="FILE",
                         help="JSON of US dollars per million tokens per model, as for `report`; without it the "
                              "page shows tokens only")


def main(args, parser: argparse.ArgumentParser) -> int:
    from ..results.report import PriceError, write_pages  # matplotlib and the templates load only when needed
    from ..results.report.costs import load_prices

    out = Path(args.out)
    try:
        prices = load_prices(args.prices) if args.prices else None
        sources = [source for text in args.runs for source in read_sources(text)]
    except (SourceError, PriceError) as error:
        parser.error(str(error))
    entries = [_entry(source, out) for source in sources]
    standings, note = rank(entries, prices), split_note(entries)
    suites, tasks = columns(standings)
    by_coverage = groups(standings)
    page = write_pages(out, {PAGE: ("leaderboard", {
        "standings": standings, "groups": by_coverage, "suites": suites, "tasks": tasks, "run_name": "leaderboard",
        "timed": had_times([s.overall for s in standings]),  # a column for the time per task: a person played
        "violated": had_violations([s.overall for s in standings]),  # the violation rates: expert calls were played
        "violation_names": [name for name, _ in VIOLATION_RATES],
        "intervals": describe_intervals([s.overall for s in standings]), "split_note": note})})[0]
    write_csv(csv_rows(standings), out / TABLE, CSV_FIELDS)
    print(_ranking_text(by_coverage))
    if note:
        print(f"\n{note}")
    print(f"\nLeaderboard: {page}\nTable:       {out / TABLE}", file=sys.stderr)
    return 0


def _ranking_text(by_coverage: list[list]) -> str:
    if len(by_coverage) < 2:
        return format_leaderboard([standing for group in by_coverage for standing in group])
    return "\n\n".join(f"Runs covering {group[0].covers}, ranked among themselves:\n{format_leaderboard(group)}"
                       for group in by_coverage)


def _entry(source: Source, out: Path) -> Entry:
    return Entry(source.name, source.label, source.episodes, _provenance(source), _link(source, out))


def _provenance(source: Source) -> dict:
    """Method, model, code commit and settings of the run's label, from run.json (or the dataset's
    card), else from its episodes."""
    record = source.provenance.get("run") or source.provenance if source.dataset else source.provenance
    first = source.episodes[0]
    settings = (record.get("settings") or {}).get(source.label) or first.settings or {}
    return {"method": first.method, "model": record.get("model") or settings.get("model"),
            "git_commit": record.get("git_commit") or source.provenance.get("git_commit"), "settings": settings}


def _link(source: Source, out: Path) -> str | None:
    target = source.folder / ("README.md" if source.dataset else f"{REPORT}/index.html")
    if not target.exists():
        return None
    return Path(os.path.relpath(target.resolve(), out.resolve())).as_posix()
