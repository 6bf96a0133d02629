"""`python -m agent play`: a person plays hard-suite scenarios in the browser. It starts the CRM (or
uses --server), serves the play host (host.py) on 127.0.0.1, prints its URL and opens it where there is
a display, and serves until the person has seen their results (or Ctrl+C); the session is the run
folder --out of method `human` (a folder played before is resumed: its finished tasks are skipped)."""
from __future__ import annotations

import argparse
import os
import sys
import webbrowser
from pathlib import Path

from crm_app.server import BackgroundServer

from .. import run_options
from ..env.actions import PAGE_CHANNEL
from ..crm.client import TOKEN_VARIABLE, ScenarioClient, ServerError
from ..env.modes import DEFAULT_MODES
from ..experiment.protocols import PROTOCOLS
from ..experiment.runner import SettingsConflict, episode_spec, prepare
from .host import create_host
from .session import SUITE, Session

METHOD = "human"
# a person has no step cap, and speaks to the customer through the page's call panel
OPTIONS = {"max_steps": None, "protocol": SUITE, "channel": PAGE_CHANNEL}


def add_parser(commands) -> None:
    play = commands.add_parser("play", help="play hard-suite scenarios yourself in the browser, scored like an agent")
    run_options.add_tasks(play)
    seeds = play.add_mutually_exclusive_group()
    seeds.add_argument("--seeds", help="the scenarios' seeds, comma-separated: each task is played with each")
    seeds.add_argument("--count", type=int, default=1,
                       help="scenarios per task, seeds 0 to COUNT-1 (as run --episodes COUNT does)")
    play.add_argument("--name", default="", help="the person's name or id (default: the start page asks)")
    play.add_argument("--consent", metavar="FILE",
                      help="a text file the person must agree to (I agree) before the first task")
    run_options.add_variants(play)
    run_options.add_server(play)
    run_options.add_out(play, "runs/human")
    play.add_argument("--port", type=int, default=0, help="the play host's port on 127.0.0.1 (default: a free one)")
    play.add_argument("--no-open", action="store_true", help="print the session's URL without opening a browser")


def main(args, parser: argparse.ArgumentParser, argv: list[str]) -> int:
    protocol = PROTOCOLS[SUITE]
    tasks = run_options.tasks(args.tasks, parser, protocol)
    asked = run_options.variants(args, parser)
    consent = _consent(args.consent, parser)
    specs = [episode_spec(METHOD, task, seed, 0, "", DEFAULT_MODES, None, look, caller)
             for look in asked["ui_variant"] for caller in asked["customer_variant"]
             for task in tasks for seed in _seeds(args, parser)]
    out = Path(args.out)
    try:
        run = prepare(specs, out, OPTIONS)
    except SettingsConflict as conflict:
        print(f"Refusing to play into {out}: {conflict}", file=sys.stderr)
        return 2
    if not run.todo:
        print(f"Every task asked for is already played in {out}; use other --seeds or another --out.")
        return 0
    try:
        with run_options.server(args) as (url, token, embedded):
            client = ScenarioClient(url, operator_token=token)
            if not client.is_operator:
                print(f"play scores each call with the server's operator token: give --operator-token or set "
                      f"{TOKEN_VARIABLE}", file=sys.stderr)
                return 1
            client.check()
            record = {"argv": argv, "options": OPTIONS, "server_url": url, "embedded": embedded,
                      "execution": {"backend": "play", "concurrency": 1},
                      "variants": run_options.variant_settings(args)}
            session = Session(run, client, record, consent, args.name.strip())
            _serve(session, args)
    except ServerError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"\nRun folder: {out} (python -m agent summarize --out {out})")
    return 0


def _serve(session: Session, args) -> None:
    """Serve the session until the person has seen their results, or Ctrl+C."""
    with BackgroundServer(create_host(session), port=args.port) as host:
        session.host = host.url
        print(f"Play session: {host.url}/  ({len(session.tasks)} tasks; Ctrl+C stops it)", flush=True)
        if not args.no_open and _has_display():
            webbrowser.open(f"{host.url}/")
        try:
            while not session.finished.wait(0.5):
                pass
        except KeyboardInterrupt:
            session.stop("interrupted (Ctrl+C)")
            print("\nStopped; the tasks played so far are kept, and the same command resumes.", file=sys.stderr)


def _has_display() -> bool:
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _consent(path: str | None, parser: argparse.ArgumentParser) -> str | None:
    if path is None:
        return None
    try:
        text = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        parser.error(f"--consent: cannot read {path}: {getattr(error, 'strerror', None) or error}")
    if not text:
        parser.error(f"--consent: {path} is empty")
    return text


def _seeds(args, parser: argparse.ArgumentParser) -> list[int]:
    if args.seeds is None:
        if args.count < 1:
            parser.error("--count takes a number of scenarios per task, 1 or more")
        return list(range(args.count))
    try:
        seeds = [int(text) for text in args.seeds.split(",") if text.strip()]
    except ValueError:
        parser.error(f"--seeds takes whole numbers separated by commas, not {args.seeds!r}")
    if not seeds or any(seed < 0 for seed in seeds):
        parser.error(f"--seeds takes whole numbers from 0, separated by commas, not {args.seeds!r}")
    return list(dict.fromkeys(seeds))
