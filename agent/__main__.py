"""Command line: `python -m agent run ...` plays episodes; `python -m agent summarize --out DIR`
prints the table of what is already there; `python -m agent report DIR` writes its HTML report;
`python -m agent memory build|show` makes and shows Synapse's exemplar memory; `python -m agent compare`
compares runs episode by episode and `python -m agent leaderboard` ranks them (agent/standings/).

Exit status: 0 when the run played (or had nothing left to play); 1 when the server cannot be
used, the backend cannot play the run (a Ray cluster without a CPU per browser), the model failed,
or every episode of the run crashed; 2 for a wrong command line or a
resume into a folder whose finished episodes were made with other settings. The reason goes to
stderr."""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import webbrowser
from pathlib import Path

from . import run_options
from .crm.client import TOKEN_VARIABLE, ScenarioClient, ServerError
from .env.actions import CHANNELS, PAGE_CHANNEL, SAY_CHANNEL
from .env.modes import DEFAULT_MODES, check_modes, describe_modes
from .env.recording import TRACE_MODES
from .episode.run_folder import EPISODES_CSV, RUN_RECORD, SUMMARY_BY_VARIANT_CSV, SUMMARY_CSV
from .experiment import webwise_auto
from .experiment.backends import BACKENDS, BackendError, session as backend_session
from .experiment.backends.episode_worker import WorkerConfig
from .experiment.protocols import DEFAULT as DEFAULT_PROTOCOL, FULL_MAX_STEPS, PAPER_CAPS, PROTOCOLS, Protocol
from .experiment.run_record import finish_record, planned_episodes, start_record
from .experiment.runner import Played, RunStopped, SettingsConflict, plan, play, prepare
from .export import cli as export_cli
from .memory import cli as memory_cli
from .play import cli as play_cli
from .policies import (SHOT_NAMES, action_space_of, environment_of, make_policy, methods, needs_gold, policy_factory,
                       shot_settings)
from .policies.outside import OutsideMethodError, is_reference
from .policies.llm import DEFAULT_TEMPERATURE, LLMError
from .results import intervals
from .results.references import ReferenceError, load_reference, reference_names
from .results.summary import (EPISODE_FIELDS, by_variant, episode_rows, load_trajectories, shown_dimensions,
                              summary_rows, write_csv)
from .results.compare import variant_gaps
from .results.table import format_labelled, format_variant_gaps
from .standings import compare_cli, leaderboard_cli


def main(argv: list[str] | None = None, prog: str = "python -m agent") -> int:
    parser = _parser(prog)
    args = parser.parse_args(argv)
    if args.command == "memory":
        return memory_cli.main(args, parser)
    if args.command == "export":
        return export_cli.main(args, parser)
    if args.command == "compare":
        return compare_cli.main(args, parser)
    if args.command == "leaderboard":
        return leaderboard_cli.main(args, parser)
    if args.command == "play":
        return play_cli.main(args, parser, sys.argv[1:] if argv is None else argv)
    out = Path(args.out)
    if args.command == "report":
        return _report(out, args.prices, args.open, parser, args.by_variant)
    references = _references(args.reference, parser)
    if args.command == "run":
        protocol = PROTOCOLS[args.protocol]
        _check_protocol_options(args, protocol, references, parser)
        tasks = run_options.tasks(args.tasks, parser, protocol, args.split)
        chosen = [m.strip() for m in args.method.split(",") if m.strip()]
        try:
            unknown = [m for m in chosen if policy_factory(m) is None]
        except OutsideMethodError as error:  # one line, as a usage error is
            print(error, file=sys.stderr)
            return 2
        if unknown:
            parser.error(f"unknown method {', '.join(unknown)}; known: {', '.join(methods())}, "
                         "or a class of your own as package.module:Class")
        promptless = [m for m in chosen if protocol.methods and m not in protocol.methods and not is_reference(m)]
        if promptless:  # a class of one's own brings its prompts
            parser.error(f"--protocol {protocol.name} has no prompts for {', '.join(promptless)}; "
                         f"its methods: {', '.join(protocol.methods)}")
        pageless = [m for m in chosen if environment_of(m) != "browser"]
        if args.channel == PAGE_CHANNEL and pageless:
            parser.error(f"--channel page puts the call on the page; {', '.join(pageless)} works without one "
                         "(it speaks to the customer with its tools)")
        args.max_steps = protocol.step_limits(None if isinstance(args.max_steps, _ProtocolDefault) else args.max_steps,
                                              tuple(dict.fromkeys(action_space_of(m) for m in chosen)),
                                              args.channel or SAY_CHANNEL)
        if args.auto_trials < 1:
            parser.error("--auto-trials takes a number of trials per task, 1 or more")
        _check_execution(args, parser)
        settings = _shot_settings(args.shots, parser)
        options = _policy_options(args, out)
        variants = _variants(chosen, settings, parser)
        try:
            observations = check_modes(args.observations.split(","))
            for method, shots in variants:  # fail now, with a clear message, on a missing key or model
                make_policy(method, shots=shots, observations=observations, **options)
        except OutsideMethodError as error:
            print(error, file=sys.stderr)
            return 2
        except (LLMError, ValueError) as error:
            parser.error(str(error))
        _check_operator_token(args, chosen, parser)
        asked = run_options.variants(args, parser)
        specs = [spec for method, shots in variants
                 for spec in plan(method, tasks, args.episodes, args.seed, args.trials, shots, observations,
                                  args.max_steps, asked["ui_variant"], asked["customer_variant"])]
        return _run(args, specs, variants, out, options, sys.argv[1:] if argv is None else argv, references)
    if args.by_variant:
        return _print_summary_by_variant(out, args.wide)
    return _print_summary(out, references, parser, args.wide)


def _run(args, specs: list, variants: list, out: Path, policy_options: dict, argv: list[str],
         references: list) -> int:
    """Play the specs against the server, record the run, print the table; the exit status."""
    options = {**policy_options, "max_steps": args.max_steps}
    try:
        run = prepare(specs, out, options)  # refuses before anything starts
    except SettingsConflict as conflict:
        print(f"Refusing to resume into {out}: {conflict}", file=sys.stderr)
        return 2
    execution = {"backend": args.backend, "browsers": args.browsers, "ray_address": args.ray_address}
    env_options = PROTOCOLS[args.protocol].env_options(policy_options["channel"])
    try:
        with run_options.server(args) as (url, token, embedded), backend_session(args.backend, args.ray_address, args.browsers):
            ScenarioClient(url, operator_token=token).check()
            record = start_record(out, argv, specs, options, run.settings, url, embedded,
                                  {**execution, "concurrency": args.concurrency}, run_options.variant_settings(args),
                                  intervals.settings(), split=args.split)
            try:
                if ("webwise", "auto") in variants:  # its examples come from its own zero-shot trials first
                    webwise_auto.prepare(list(dict.fromkeys(spec.task for spec in specs)), url, out,
                                         args.auto_trials, args.concurrency, args.max_steps,
                                         progress=not args.quiet, policy_options=policy_options,
                                         operator_token=token, env_options=env_options, **execution)
                config = WorkerConfig(url, policy_options, token,
                                      {"screenshots": args.screenshots, "trace": args.trace}, env_options)
                played = play(run, config, args.concurrency, progress=not args.quiet, **execution)
            except RunStopped as stopped:
                finish_record(out, record, f"stopped: {stopped}")
                _print_summary(out, references, wide=args.wide)
                if not args.no_report:
                    _report(out)
                print(f"\nThe run stopped: {stopped}\nFinished episodes are kept in {out}; "
                      "the same command resumes the run.", file=sys.stderr)
                return 1
            finish_record(out, record, "finished")
    except (ServerError, BackendError) as error:
        print(error, file=sys.stderr)
        return 1
    _print_summary(out, references, wide=args.wide)
    if not args.no_report:
        _report(out)
    _print_locations(out)
    return _crash_status(played)


def _report(out: Path, prices: str | None = None, open_it: bool = False, parser=None, by_variant: bool = False) -> int:
    """Write OUT/report/ (agent/results/report/) and say where it is."""
    from .results.report import PriceError, ReportError, write_report  # matplotlib loads only when needed

    try:
        index = write_report(out, prices, by_variant)
    except (ReportError, PriceError) as error:
        if parser is None:
            raise
        parser.error(str(error))
    print(f"Report: {index}", file=sys.stderr)
    if open_it and not webbrowser.open(index.resolve().as_uri()):
        print("No browser could be opened; open the file above.", file=sys.stderr)
    return 0


def _crash_status(played: Played) -> int:
    """1, with the reason on stderr, when every episode this run played crashed."""
    crashes = played.crashed
    if not played.written or len(crashes) < len(played.written):
        return 0
    path, crash = crashes[0]
    reason = [line for line in crash.strip().splitlines() if line.strip()][-1]
    print(f"Every episode of this run crashed ({len(crashes)}). The first, {path}: {reason}", file=sys.stderr)
    return 1


def _check_protocol_options(args, protocol: Protocol, references: list, parser: argparse.ArgumentParser) -> None:
    if args.channel and not protocol.on_call:
        parser.error(f"--channel says how the customer on the line reaches the agent; --protocol {protocol.name} "
                     f"has no customer on the line (the protocols with one: "
                     f"{', '.join(name for name, p in PROTOCOLS.items() if p.on_call)})")
    if args.conversation and protocol.name != "paper":
        parser.error("--conversation is for --protocol paper (the full protocol always shows the conversation)")
    if references and protocol.name != "paper":
        parser.error("--reference puts the papers' numbers beside paper-protocol results: add --protocol paper")
    if protocol.name == "paper" and args.observations != ",".join(DEFAULT_MODES):
        parser.error("--protocol paper observes the page as the papers did; leave out --observations")


def _check_operator_token(args, chosen: list[str], parser: argparse.ArgumentParser) -> None:
    """A method that follows the gold steps (the oracle) needs the operator token of a --server (the
    embedded server's is known), for the steps' values: refused before any episode starts."""
    golden = [method for method in chosen if needs_gold(method)]
    if golden and args.server and not (args.operator_token or os.environ.get(TOKEN_VARIABLE)):
        parser.error(f"{', '.join(golden)} follows the gold steps, whose values --server {args.server} tells only "
                     f"its operator: pass its operator token with --operator-token TOKEN or the {TOKEN_VARIABLE} "
                     "environment variable (the token run.py printed or wrote to its instance folder)")


def _check_execution(args, parser: argparse.ArgumentParser) -> None:
    if args.concurrency < 1:
        parser.error("--concurrency takes a number of episodes in flight, 1 or more")
    if args.browsers is not None and args.browsers < 1:
        parser.error("--browsers takes a number of browsers, 1 or more")
    if args.ray_address and args.backend != "ray":
        parser.error("--ray-address is for --backend ray")
    if args.backend == "ray":
        from .experiment.backends import ray_cluster

        if not ray_cluster.available():
            parser.error("--backend ray needs Ray: pip install -e '.[ray]' (make setup installs it)")


def _references(value: str | None, parser: argparse.ArgumentParser) -> list:
    names = [name.strip() for name in (value or "").split(",") if name.strip()]
    try:
        return [load_reference(name) for name in dict.fromkeys(names)]
    except ReferenceError as error:
        parser.error(f"--reference: {error}")


def _print_summary(out: Path, references: list = (), parser: argparse.ArgumentParser | None = None,
                   wide: bool = False) -> int:
    """Write OUT/summary.csv and print the table (with the reference columns; the wide layout when
    `wide`, else as the terminal's width allows: table.format_labelled); the exit status."""
    trajectories = load_trajectories(out)
    rows = summary_rows(trajectories, planned_episodes(out))
    write_csv(rows, out / SUMMARY_CSV)
    write_csv(episode_rows(trajectories), out / EPISODES_CSV, EPISODE_FIELDS)
    if not rows:
        print(f"No trajectories under {out}.")
        return 0
    if references and {row["protocol"] for row in rows} != {"paper"}:
        message = f"--reference goes beside paper-protocol results; {out} holds results of another protocol"
        if parser is None:
            raise ValueError(message)
        parser.error(message)
    print(format_labelled(rows, references, _terminal_width(), wide))
    return 0


def _print_summary_by_variant(out: Path, wide: bool = False) -> int:
    """The table of OUT's episodes by the UI and customer variants each was played in
    (OUT/summary-by-variant.csv), and the gap of each other variant against variant 0."""
    trajectories = by_variant(load_trajectories(out))
    rows = summary_rows(trajectories)
    write_csv(rows, out / SUMMARY_BY_VARIANT_CSV)
    if not rows:
        print(f"No trajectories under {out}.")
        return 0
    print(format_labelled(rows, (), _terminal_width(), wide))
    for dimension in shown_dimensions(trajectories):
        print("\n" + format_variant_gaps(dimension, variant_gaps(trajectories, dimension)))
    return 0


def _terminal_width() -> int:
    """The columns of the terminal (the COLUMNS variable first), 120 without one."""
    return shutil.get_terminal_size((120, 24)).columns


def _print_locations(out: Path) -> None:
    print(f"\nTrajectories: {out}/<label>/<task>/seed<N>-trial<T>.json\n"
          f"Summary:      {out / SUMMARY_CSV}\nRun record:   {out / RUN_RECORD}")


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


def _policy_options(args, out: Path) -> dict:
    """What the LLM policies need (the oracle ignores them); the key comes from OPENAI_API_KEY."""
    return {"model": args.model, "base_url": args.base_url, "cache_dir": args.cache_dir,
            "temperature": args.temperature, "embedding_model": args.embedding_model,
            "memory": args.memory, "auto_trials": args.auto_trials,
            "auto_examples": str(webwise_auto.examples_path(out)),
            "protocol": args.protocol, "conversation": args.conversation, "on_call": PROTOCOLS[args.protocol].on_call,
            "channel": args.channel or SAY_CHANNEL}


class _ProtocolDefault(int):
    """An option's default that the protocol replaces when the option is not given (--max-steps)."""


class _Help(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default, unless its help already says what the default is."""

    def _get_help_string(self, action):
        text = action.help or ""
        return text if "default" in text or action.default is None else super()._get_help_string(action)


def commands() -> dict[str, str]:
    """Each command of this command line and its help: the `airlinecrm` command offers them all."""
    subcommands = next(action for action in _parser()._actions if isinstance(action, argparse._SubParsersAction))
    return {choice.dest: choice.help for choice in subcommands._choices_actions}


def _parser(prog: str = "python -m agent") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, formatter_class=_Help,
                                     description="Run agents on CRM scenarios and summarize the results.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="play episodes and print the summary table", formatter_class=_Help)
    run.add_argument("--method", default="oracle",
                     help=f"one or more of {', '.join(methods())}, comma-separated; or a policy class of your own "
                          "as package.module:Class (imported from the current folder or PYTHONPATH; the contract: "
                          "agent/episode/policy.py, docs/your-agent.md)")
    run_options.add_tasks(run)
    run.add_argument("--episodes", type=int, default=20, help="scenarios per task")
    run.add_argument("--trials", type=int, default=1, help="plays per scenario; k > 1 reports pass^k")
    run_options.add_variants(run)
    run.add_argument("--seed", type=int, default=0, help="seed of the first scenario of each task")
    run.add_argument("--concurrency", type=int, default=1,
                     help="episodes in flight at once; while one waits for its model, the others use the browser")
    run.add_argument("--browsers", type=int,
                     help="Chromium browsers the episodes in flight share, each with a browser context per episode "
                          "(default: one per CPU core, at most --concurrency; under --backend ray, one per Ray worker "
                          "and at most the cluster's CPUs)")
    run.add_argument("--backend", choices=BACKENDS, default="local",
                     help="local: threads of this process; ray: Ray workers on a Ray cluster (--ray-address) or on a "
                          "local Ray instance; this process writes the trajectories either way")
    run.add_argument("--ray-address", metavar="ADDR",
                     help="--backend ray: the cluster to join, e.g. 10.0.0.5:6379 or auto (default: start a local "
                          "Ray instance for the run)")
    run.add_argument("--protocol", choices=tuple(PROTOCOLS), default=DEFAULT_PROTOCOL,
                     help="the experiment and its scenario suite: " + "; ".join(
                         f"{name}: {protocol.description}" for name, protocol in PROTOCOLS.items())
                     + " (docs/protocols.md)")
    run.add_argument("--channel", choices=CHANNELS,
                     help="--protocol hard: how the customer on the line reaches the agent: say (default: SAY and "
                          "TRANSFER, their lines in the observation and the task) or page (the page's Call panel "
                          "alone, the task holding the briefing: for computer-use agents)")
    run.add_argument("--conversation", action="store_true",
                     help="--protocol paper: show the customer conversation too (default: the instruction alone)")
    run.add_argument("--max-steps", type=int, default=_ProtocolDefault(FULL_MAX_STEPS),
                     help="actions per episode at most; when not given, each task's cap is twice its gold path in "
                          f"the method's actions plus 10, at least {FULL_MAX_STEPS} (docs/scenarios.md), and "
                          "--protocol paper caps each task as the papers did (" +
                          ", ".join(f"{task} {cap}" for task, cap in PAPER_CAPS.items()) + ")")
    run_options.add_server(run)
    run_options.add_out(run)
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument("--model", default=os.environ.get("OPENAI_MODEL"),
                     help="chat model of the LLM methods; required for them (default: OPENAI_MODEL, "
                          f"now {os.environ.get('OPENAI_MODEL')!r})")
    run.add_argument("--base-url", help="OpenAI-compatible endpoint (default: OPENAI_BASE_URL, else OpenAI)")
    run.add_argument("--shots", default="0",
                     help="0 (zero-shot), few (few-shot) or 0,few (both, as separate columns); webwise also "
                          "takes auto (examples from its own successful zero-shot trials)")
    run.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE,
                     help="sampling temperature, as in the papers")
    run.add_argument("--cache-dir", help="on-disk response cache; a rerun is replayed from it (default: none)")
    run.add_argument("--memory", metavar="MEMORY_DIR",
                     help="synapse few-shot: the exemplar memory to retrieve from (python -m agent memory build)")
    run.add_argument("--embedding-model", default=os.environ.get("OPENAI_EMBEDDING_MODEL"),
                     help="synapse: embedding model of the /embeddings route for retrieval (default: "
                          "OPENAI_EMBEDDING_MODEL); without one, retrieval ranks by BM25")
    run.add_argument("--auto-trials", type=int, default=10,
                     help="webwise --shots auto: zero-shot trials per task to take examples from")
    run.add_argument("--no-report", action="store_true",
                     help="leave OUT/report/ unwritten (`python -m agent report OUT` writes it later)")
    run.add_argument("--screenshots", action="store_true",
                     help="save a small JPEG of the page after every step, for the report")
    run.add_argument("--trace", choices=TRACE_MODES,
                     help="save a Playwright trace (zip) of the failed or of all episodes; "
                          "`playwright show-trace FILE` replays it")
    run.add_argument("--observations", default=",".join(DEFAULT_MODES),
                     help="observation modes, comma-separated (default elements); an image mode makes flat "
                          "send the image to the model: " + "; ".join(describe_modes().splitlines()))
    summary = commands.add_parser("summarize", help="print the table for the trajectories in --out",
                                  formatter_class=_Help)
    summary.add_argument("--out", default="runs/latest", help="folder a run wrote to")
    summary.add_argument("--by-variant", action="store_true",
                         help="a column per method and UI and customer variant each episode was played in (a "
                              "random run too), written to OUT/summary-by-variant.csv, and each variant's gap "
                              "against variant 0")
    for command in (run, summary):
        command.add_argument("--reference", metavar="NAMES",
                             help=f"paper protocol: the papers' reported numbers beside the measured columns, "
                                  f"comma-separated: {', '.join(reference_names())} (agent/results/references/)")
        command.add_argument("--wide", action="store_true",
                             help="a column group per method, a row per task, however wide (default: so when at "
                                  "most two methods fit the terminal's width, else a row per method and task)")
    report = commands.add_parser("report", help="write OUT/report/index.html: charts, tables, every episode step by step",
                                 formatter_class=_Help)
    report.add_argument("out", metavar="OUT", help="a run folder (finished or not)")
    report.add_argument("--open", action="store_true", help="open the report in the default browser")
    report.add_argument("--by-variant", action="store_true",
                        help="a column per method and UI and customer variant each episode was played in")
    report.add_argument("--prices", metavar="FILE",
                        help='JSON of US dollars per million tokens per model, e.g. {"gpt-4o": {"prompt": 2.5, '
                             '"completion": 10}}; without it the report shows tokens only')
    memory_cli.add_parser(commands)
    export_cli.add_parser(commands)
    compare_cli.add_parser(commands)
    leaderboard_cli.add_parser(commands)
    play_cli.add_parser(commands)
    parser.epilog = "defaults of run: " + " ".join(
        f"{action.option_strings[0]} {action.default}" for action in run._actions
        if action.option_strings and action.default is not None and action.default is not False
        and action.default != argparse.SUPPRESS)
    return parser


if __name__ == "__main__":
    sys.exit(main())
