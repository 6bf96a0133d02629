"""`python -m agent compare RUN_A RUN_B [RUN ...]`: each further run compared with A, episode by
episode (agent/results/compare.py), as text, and with --out as DIR/comparison.csv and
DIR/comparison.html; `python -m agent compare --plan` says how many paired seeds a comparison needs
(agent/results/power.py), from the numbers given or from a pilot pair of runs."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scenarios.tasks import TASK_NAMES

from ..results.compare import CSV_FIELDS, RESULT_SETTINGS, compare, csv_rows, differences
from ..results.power import LEVEL, POWER, describe, plan
from ..results.summary import write_csv
from ..results.table import format_comparison
from .sources import SourceError, read_source

COMPARISON_CSV, COMPARISON_PAGE = "comparison.csv", "comparison.html"


def add_parser(commands) -> None:
    command = commands.add_parser(
        "compare", help="compare runs episode by episode: rates, paired differences with intervals, McNemar p, "
                        "flipped episodes; --plan: how many seeds a comparison needs")
    command.add_argument("runs", nargs="*", metavar="RUN",
                         help="run folders or exported datasets, PATH or PATH:LABEL (one label of a folder holding "
                              "several); every run after the first is compared with the first (A)")
    command.add_argument("--allow-different", action="append", default=[], metavar="SETTING",
                         help=f"compare runs that differ in this result-changing setting ({', '.join(RESULT_SETTINGS)}); "
                              "repeat it or separate them by commas (default: such runs are refused)")
    command.add_argument("--out", metavar="DIR", help=f"also write DIR/{COMPARISON_CSV} and DIR/{COMPARISON_PAGE}")
    command.add_argument("--plan", action="store_true",
                         help="print the paired seeds per task needed to detect --difference, from --rate or from a "
                              "pilot: two runs given (A's rate and how often their pairs disagree)")
    command.add_argument("--rate", type=float, help="--plan: the success rate of A")
    command.add_argument("--difference", type=float, help="--plan: the success difference to detect, e.g. 0.05")
    command.add_argument("--power", type=float, default=POWER, help="--plan: the chance of detecting it")
    command.add_argument("--level", type=float, default=LEVEL, help="--plan: the test's two-sided level")


def main(args, parser: argparse.ArgumentParser) -> int:
    if args.plan:
        return _plan(args, parser)
    if len(args.runs) < 2:
        parser.error("compare takes two runs or more (RUN_A RUN_B ...), or --plan")
    allowed = _allowed(args.allow_different, parser)
    a, others = _read(args.runs[0], parser), [_read(run, parser) for run in args.runs[1:]]
    comparisons = []
    for b in others:
        found = differences(a, b, allowed)
        if found:
            names = ",".join(dict.fromkeys(line.split(":")[0] for line in found))
            print(f"Refusing to compare {a.name} with {b.name}: they differ in settings that change results "
                  f"({'; '.join(found)}). Add --allow-different {names} to compare them anyway.", file=sys.stderr)
            return 2
        comparisons.append(compare(a, b))
    print("\n\n".join(_text(comparison, allowed) for comparison in comparisons))
    if args.out:
        _write(comparisons, Path(args.out))
    return 0


def _allowed(values: list[str], parser: argparse.ArgumentParser) -> set[str]:
    names = {name.strip() for value in values for name in value.split(",") if name.strip()}
    unknown = sorted(names - set(RESULT_SETTINGS))
    if unknown:
        parser.error(f"--allow-different takes {', '.join(RESULT_SETTINGS)}; not {', '.join(unknown)}")
    return names


def _read(text: str, parser: argparse.ArgumentParser):
    try:
        return read_source(text)
    except SourceError as error:
        parser.error(str(error))


def _text(comparison, allowed: set[str]) -> str:
    despite = [line for line in differences(comparison.a, comparison.b) if line.split(":")[0] in allowed]
    return format_comparison(comparison) + "".join(f"\nCompared although they differ in {line}." for line in despite)


def _write(comparisons: list, out: Path) -> None:
    from ..results.report import write_pages  # matplotlib and the templates load only when needed

    write_csv([row for comparison in comparisons for row in csv_rows(comparison)], out / COMPARISON_CSV, CSV_FIELDS)
    page = write_pages(out, {COMPARISON_PAGE: ("comparison", {"comparisons": comparisons, "run_name": "comparison"})})[0]
    print(f"\nTable: {out / COMPARISON_CSV}\nPage:  {page}", file=sys.stderr)


def _plan(args, parser: argparse.ArgumentParser) -> int:
    if args.difference is None:
        parser.error("--plan needs --difference (the success difference to detect)")
    rate, discordance, tasks = args.rate, None, len(TASK_NAMES)
    if args.runs:
        if len(args.runs) != 2 or rate is not None:
            parser.error("--plan takes either --rate or a pilot of two runs (RUN_A RUN_B), not both")
        pilot = compare(_read(args.runs[0], parser), _read(args.runs[1], parser))
        if not pilot.lines:
            parser.error(f"the pilot runs {args.runs[0]} and {args.runs[1]} have no episode in common")
        overall = pilot.lines[-1]
        rate, tasks = overall.a_success, max(1, len(pilot.lines) - (len(pilot.lines) > 1))
        discordance = (len(overall.a_only) + len(overall.b_only)) / max(1, overall.pairs)
    elif rate is None:
        parser.error("--plan needs --rate (A's success rate) or a pilot of two runs")
    try:
        found = plan(rate, args.difference, discordance, args.power, args.level)
    except ValueError as error:
        parser.error(str(error))
    print(describe(found, tasks))
    return 0
