"""`python -m agent export scenarios|run|check`:

    export scenarios --suite full --tasks all --episodes 3 --out DIR [--modes elements,axtree,screenshot]
                     [--ui-variant K|random|all] [--customer-variant K|random|all]
    export run RUN_DIR --out DIR
    export check DIR [--browser]

scenarios: the oracle plays each scenario now, on an embedded CRM in the default world (whatever
CRM_TODAY or CRM_DATA_SEED say), and the episodes are written as the dataset; run: an existing run's
trajectories (any method), with its run.json as provenance; check: every exported row played again
on a fresh server, its gold path over the API (or, with --browser, its own actions through the
browser), the score compared with the stored one (check.py).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from crm_app.config import DEFAULTS
from crm_app.version import VERSION
from scenarios.tasks.expert import SPLITS

from .. import run_options
from ..env.actions import CHANNELS
from ..episode.run_folder import RUN_RECORD, trajectory_paths
from ..episode.trajectory import UnreadableTrajectory, read_trajectory
from ..experiment.protocols import PROTOCOLS
from ..experiment.run_record import git_commit
from ..json_files import read_json_object

WORLD = {"TODAY": DEFAULTS["TODAY"], "DATA_SEED": DEFAULTS["DATA_SEED"]}  # the world every export is made in
SCREENSHOT = "screenshot"  # the mode kept as an image column (the screenshot after each step)


def add_parser(commands) -> None:
    export = commands.add_parser("export", help="write scenarios, gold steps and episodes as a Parquet dataset")
    actions = export.add_subparsers(dest="export_command", required=True)
    scenarios = actions.add_parser("scenarios", help="the oracle's episodes of new scenarios, played now")
    scenarios.add_argument("--suite", default="full", help="all, or suites, comma-separated: full, hard, paper, expert")
    scenarios.add_argument("--tasks", default="all", help="'all' (the suite's) or task names, comma-separated")
    scenarios.add_argument("--split", choices=SPLITS, help="only the tasks of this split (the expert suite's train or test)")
    scenarios.add_argument("--episodes", type=int, default=5, help="scenarios per task")
    scenarios.add_argument("--seed", type=int, default=0, help="seed of the first scenario of each task")
    scenarios.add_argument("--modes", default="elements",
                           help="observation modes kept per step, comma-separated (elements always; "
                                f"{SCREENSHOT}: the screenshot after each step as an image column)")
    run_options.add_variants(scenarios)
    scenarios.add_argument("--channel", choices=CHANNELS,
                           help="the hard suite's call: say (default: SAY lines) or page (the page's Call panel)")
    scenarios.add_argument("--out", required=True, help="the dataset folder")
    scenarios.add_argument("--quiet", action="store_true", help="no progress bar")
    run = actions.add_parser("run", help="an existing run's trajectories, with its run.json")
    run.add_argument("run_dir", metavar="RUN_DIR", help="a folder `python -m agent run` wrote to")
    run.add_argument("--out", required=True, help="the dataset folder")
    check = actions.add_parser("check", help="play every exported row again and compare its score")
    check.add_argument("folder", metavar="DIR", help="an exported dataset")
    check.add_argument("--browser", action="store_true",
                       help="play each row's own actions through the browser (default: its scenario's gold API "
                            "calls over the API)")
    check.add_argument("--quiet", action="store_true", help="no progress bar")


def main(args, parser: argparse.ArgumentParser) -> int:
    try:  # imported here, so that the other commands work without the export extra
        import pyarrow  # noqa: F401
    except ModuleNotFoundError:
        parser.error("export needs the export extra: pip install 'airlinecrm[export]'")
    if args.export_command == "scenarios":
        return export_scenarios(args, parser)
    if args.export_command == "run":
        return export_run(Path(args.run_dir), Path(args.out), parser)
    return check(Path(args.folder), args.browser, args.quiet, parser)


def export_scenarios(args, parser: argparse.ArgumentParser) -> int:
    from scenarios.app import embedded_server

    suites = _suites(args.suite, parser)
    if args.channel and not all(PROTOCOLS[suite].on_call for suite in suites):
        parser.error("--channel is for the suites with a customer on the line: --suite hard or expert")
    modes = [mode.strip() for mode in args.modes.split(",") if mode.strip()]
    with tempfile.TemporaryDirectory(prefix="airlinecrm-export-") as folder, embedded_server(None, WORLD) as server:
        runs = [Path(folder) / suite for suite in suites]
        for suite, run_dir in zip(suites, runs):
            status = _play_oracle(args, suite, modes, server, run_dir)
            if status != 0:
                return status
        provenance = {"command": _command(args), "world": WORLD, **_project()}
        return _write(runs, Path(args.out), provenance, parser)


def _play_oracle(args, suite: str, modes: list[str], server, run_dir: Path) -> int:
    """`python -m agent run` of the oracle on the server, into `run_dir` (its own process: the run
    command sits above this one); its exit status."""
    observed = ",".join(dict.fromkeys(["elements", *(mode for mode in modes if mode != SCREENSHOT)]))
    argv = [sys.executable, "-m", "agent", "run", "--method", "oracle", "--protocol", suite, "--tasks", args.tasks,
            "--episodes", str(args.episodes), "--seed", str(args.seed), "--observations", observed,
            "--server", server.url, f"--operator-token={server.app.config['OPERATOR_TOKEN']}", "--out", str(run_dir),
            "--no-report"]
    argv += ["--screenshots"] if SCREENSHOT in modes else []
    argv += run_options.variant_argv(args)
    argv += ["--channel", args.channel] if args.channel else []
    argv += ["--split", args.split] if args.split else []
    argv += ["--quiet"] if args.quiet else []
    # the run's own table is left out: the export says what it wrote; its errors are shown
    return subprocess.run(argv, stdout=subprocess.DEVNULL, check=False).returncode


def _suites(value: str, parser: argparse.ArgumentParser) -> list[str]:
    names = sorted(PROTOCOLS) if value == "all" else [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in PROTOCOLS]
    if unknown or not names:
        parser.error(f"--suite takes all or suites, comma-separated, of {', '.join(sorted(PROTOCOLS))}")
    return list(dict.fromkeys(names))


def export_run(run_dir: Path, out: Path, parser: argparse.ArgumentParser) -> int:
    if not run_dir.is_dir():
        parser.error(f"{run_dir}: no such run folder")
    record = read_json_object(run_dir / RUN_RECORD) if (run_dir / RUN_RECORD).exists() else {}
    return _write([run_dir], out, {"run": record, **_project()}, parser)


def _write(run_dirs: list[Path], out: Path, provenance: dict, parser: argparse.ArgumentParser) -> int:
    from .dataset import write_dataset
    from .rows import episode_row

    rows = []
    for path in (path for run_dir in run_dirs for path in trajectory_paths(run_dir)):
        try:
            trajectory = read_trajectory(path)
        except UnreadableTrajectory:
            continue
        if trajectory.complete:
            rows.append(episode_row(trajectory, path))
    if not rows:
        parser.error(f"{', '.join(map(str, run_dirs))}: no finished episode to export")
    written = write_dataset(rows, out, provenance)
    print(f"Exported {len(rows)} episodes to {out} ({len(written)} Parquet files under {out / 'data'}, "
          f"the card {out / 'README.md'})")
    return 0


def check(folder: Path, browser: bool, quiet: bool, parser: argparse.ArgumentParser) -> int:
    from scenarios.app import embedded_server

    from .check import check_gold, check_in_browser, describe, exported_rows

    try:
        rows = exported_rows(folder, with_actions=browser)
    except ValueError as error:
        parser.error(str(error))
    with embedded_server(None, WORLD) as server:
        play = check_in_browser if browser else check_gold
        mismatches = play(rows, server.url, server.app.config["OPERATOR_TOKEN"], quiet)
    print(describe(mismatches, len(rows), browser))
    return 1 if mismatches else 0


def _command(args) -> str:
    parts = ["python -m agent export scenarios", f"--suite {args.suite}", f"--tasks {args.tasks}",
             f"--episodes {args.episodes}", f"--seed {args.seed}", f"--modes {args.modes}"]
    return " ".join(parts + run_options.variant_argv(args) + ([f"--channel {args.channel}"] if args.channel else [])
                    + ([f"--split {args.split}"] if args.split else []))


def _project() -> dict:
    return {"project": "airlinecrm", "version": VERSION, "git_commit": git_commit()}
