"""OUT/run.json: what a run measured and with what, written when it starts and again when it ends.

It holds the methods and their labels, shots, model, endpoint (without credentials), temperature,
max steps, protocol, tasks, seeds, trials, the settings each label's trajectories record, the git
commit, package versions, the server, how the episodes were played (`execution`: backend,
concurrency, browsers, Ray address), the --ui-variant and --customer-variant settings as given
(`all`, `random`, a number; each left out when not given), start and end times, the command line
and what the table's 95 % intervals are computed with (`intervals`: the bootstrap's resamples and
random seed), for a person's play who played and their consent (`person`), and the --split its
tasks came from (`split`). A run resumed into
the same folder keeps the earlier runs' records under `earlier_runs`.
"""
from __future__ import annotations

import datetime as dt
import importlib.metadata
import os
import platform
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path

from crm_app.version import VERSION

from ..episode.run_folder import RUN_RECORD
from ..episode.spec import EpisodeSpec
from ..json_files import read_json_object, write_json

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class RunRecord:
    """OUT/run.json: one run's record, as `to_json` writes it and `from_json` reads it back."""
    command: str
    labels: list[str]
    methods: list[str]
    shots: list[str]
    model: str | None
    base_url: str | None  # without credentials or query
    temperature: float | None
    max_steps: int | dict[str, int] | None
    protocol: str | None
    tasks: list[str]
    seeds: list[int]
    trials: int
    settings: dict[str, dict]  # each label's result settings (settings.py)
    git_commit: str | None
    packages: dict[str, str | None]
    server_url: str | None
    embedded_server: bool
    execution: dict | None  # backend, concurrency, browsers, Ray address
    started: str
    ended: str | None = None
    episodes: int = 0
    ui_variant: str | None = None  # --ui-variant as given (a number, random, all); None: not given
    customer_variant: str | None = None  # --customer-variant as given; None: not given
    outcome: str | None = None  # "finished", or "stopped: <why>"
    intervals: dict | None = None  # how the summary's intervals are computed (agent/results/intervals.py)
    earlier_runs: list[dict] = field(default_factory=list)  # the records of earlier runs into the folder
    person: dict | None = None  # a person's play (agent/play/): their name as given, their consent and when
    split: str | None = None  # --split as given (train, test: the expert suite's); None: every task

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        for optional in ("ui_variant", "customer_variant", "outcome", "intervals", "earlier_runs", "person", "split"):
            if not data[optional]:
                del data[optional]
        return data

    @classmethod
    def from_json(cls, data: dict) -> RunRecord:
        """What an older record lacks is None (or empty)."""
        known = {f.name: data.get(f.name) for f in fields(cls)}
        known["earlier_runs"] = known["earlier_runs"] or []
        return cls(**known)

    def planned(self) -> set[tuple[str, str, int, int]]:
        """(label, task, seed, trial) of every episode this run set out to play."""
        return {(label, task, seed, trial) for label in self.labels or [] for task in self.tasks or []
                for seed in self.seeds or [] for trial in range(self.trials or 1)}


def start_record(out: Path, argv: list[str], specs: list[EpisodeSpec], options: dict, settings: dict,
                 server_url: str, embedded: bool, execution: dict | None = None,
                 variants: dict[str, str] | None = None, intervals: dict | None = None,
                 person: dict | None = None, split: str | None = None) -> RunRecord:
    """The record of a run about to play `specs`, written now; `settings` maps each label to its
    result settings; `execution` says how the episodes are played (backend, concurrency, browsers,
    Ray address); `variants` the --ui-variant and --customer-variant settings as given, by field
    (run_options.variant_settings; its labels name each variant);
    `intervals` how its table's intervals are computed; `person` who plays, for a person's play;
    `split` the --split its tasks were taken from."""
    record = RunRecord(
        command=public_command(argv),
        labels=list(dict.fromkeys(spec.label for spec in specs)),
        methods=list(dict.fromkeys(spec.method for spec in specs)),
        shots=list(dict.fromkeys(spec.shots or "0" for spec in specs)),  # a method without prompts ran with the default
        model=options.get("model"),
        base_url=public_url(options.get("base_url") or os.environ.get("OPENAI_BASE_URL")),
        temperature=options.get("temperature"),
        max_steps=options.get("max_steps"),
        protocol=next(iter(settings.values()), {}).get("protocol"),
        tasks=list(dict.fromkeys(spec.task for spec in specs)),
        seeds=sorted({spec.seed for spec in specs}),
        trials=max((spec.trial for spec in specs), default=0) + 1,
        settings=settings,
        git_commit=git_commit(),
        packages=package_versions(),
        server_url=public_url(server_url),
        embedded_server=embedded,
        execution=execution and {**execution, "ray_address": public_url(execution.get("ray_address"))},
        started=_now(),
        episodes=len(specs),
        **{name: value for name, value in (variants or {}).items() if value},
        intervals=intervals,
        person=person,
        split=split,
    )
    earlier = read_json_object(out / RUN_RECORD)
    if earlier:
        record.earlier_runs = [*earlier.pop("earlier_runs", []), earlier]
    write_json(out / RUN_RECORD, record.to_json())
    return record


def finish_record(out: Path, record: RunRecord, outcome: str) -> None:
    record.ended, record.outcome = _now(), outcome
    write_json(out / RUN_RECORD, record.to_json())


def read_record(out: Path) -> RunRecord | None:
    data = read_json_object(out / RUN_RECORD)
    return RunRecord.from_json(data) if data else None


def planned_episodes(out: Path) -> set[tuple[str, str, int, int]]:
    """(label, task, seed, trial) of every episode the runs recorded in `out` set out to play."""
    record = read_record(out)
    if record is None:
        return set()
    earlier = [RunRecord.from_json(run) for run in record.earlier_runs]
    return set().union(*(run.planned() for run in [record, *earlier]))


SECRET_OPTIONS = ("--operator-token",)
URL_OPTIONS = ("--base-url", "--server", "--db", "--ray-address")


def public_command(argv: list[str]) -> str:
    """The command line with secrets left out: tokens masked, credentials cut from URLs."""
    shown, hide = [], None
    for word in argv:
        option, equals, value = word.partition("=")
        if hide:
            shown.append("***" if hide in SECRET_OPTIONS else public_url(word))
            hide = None
        elif equals and option in SECRET_OPTIONS + URL_OPTIONS:
            shown.append(f"{option}={'***' if option in SECRET_OPTIONS else public_url(value)}")
        else:
            shown.append(word)
            hide = word if word in SECRET_OPTIONS + URL_OPTIONS else None
    return shlex.join([Path(sys.executable).name, "-m", "agent", *shown])


def public_url(url: str | None) -> str | None:
    """The URL without user name, password or query string (where keys tend to hide)."""
    if not url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    authority, slash, path = rest.partition("/")
    host = authority.rsplit("@", 1)[-1]
    return f"{scheme}://{host}{slash}{path.split('?', 1)[0].split('#', 1)[0]}"


def git_commit() -> str | None:
    """The checkout's commit, with `-dirty` when files differ from it; None outside a git checkout."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                                 capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if commit.returncode != 0:
        return None
    return commit.stdout.strip() + ("-dirty" if changed.stdout.strip() else "")


def package_versions() -> dict[str, str]:
    """Python's and this project's version, and the installed version of each of the project's
    dependencies: the server's and the agent extra's (what a run uses)."""
    found = {"python": platform.python_version(), "airlinecrm": VERSION}
    try:
        requirements = importlib.metadata.requires("airlinecrm") or []
    except importlib.metadata.PackageNotFoundError:
        return found
    for requirement in requirements:
        if "extra ==" in requirement and not re.search(r"""extra == ['"]agent['"]""", requirement):
            continue
        name = re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0]
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = None
    return found


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
