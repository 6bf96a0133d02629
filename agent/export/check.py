"""`export check`: every exported row played again on a fresh embedded server.

By default the row's scenario is made again and its gold path played over the JSON API
(scenarios/gold_path.py): the scenario must be the one stored (briefing, gold steps, gold calls),
its gold path must score success 1 and progress 1.0, and a row the oracle played must have stored
that score. With `browser`, the row's own actions are played again through the browser instead, and
its score must be the stored one (an episode is a pure function of its scenario and its actions).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from crm_app.http_client import http_sender
from scenarios.gold_path import GoldPath

from ..crm.client import ScenarioClient
from ..env.actions import SAY_CHANNEL
from ..env.browser_env import CrmEnv
from ..env.browser_host import BrowserHost
from ..episode.play import play_episode
from ..episode.policy import Policy
from ..episode.spec import EpisodeSpec
from ..experiment.protocols import PROTOCOLS
from .dataset import DATA
from .reading import read_columns
from .rows import as_json

SCORES = ("success", "task_progress")
GOLD_SCORE = {"success": 1, "task_progress": 1.0}
STORED_SCENARIO = ("instruction", "gold_actions", "gold_calls")  # what must come out the same again
COLUMNS = ("suite", "task", "seed", "method", "ui_variant", "customer_variant", *SCORES, *STORED_SCENARIO)


@dataclass(frozen=True)
class Mismatch:
    suite: str
    task: str
    seed: int
    what: str

    def __str__(self) -> str:
        return f"{self.suite} {self.task} seed {self.seed}: {self.what}"


def exported_rows(folder: Path, with_actions: bool = False) -> list[dict]:
    """The rows of the dataset in `folder` (its data/ Parquet files), with each step's action when
    asked; ValueError if there are none."""
    files = sorted((folder / DATA).rglob("*.parquet"))
    if not files:
        raise ValueError(f"{folder} holds no exported dataset (no {DATA}/**/*.parquet)")
    rows = []
    for path in files:
        found = read_columns(path, [*COLUMNS, "channel", *(("steps",) if with_actions else ())])
        rows += [_with_actions(row) if with_actions else row for row in found]
    return rows


def _with_actions(row: dict) -> dict:
    return {**row, "actions": [step["action"] for step in row.pop("steps")]}


def check_gold(rows: list[dict], server_url: str, operator_token: str, quiet: bool = False) -> list[Mismatch]:
    """Each row's scenario made again and its gold path played over the API."""
    client = ScenarioClient(server_url, operator_token=operator_token, modality="api")
    send = http_sender(server_url)
    mismatches = []
    for row in tqdm(rows, unit="scenario", disable=quiet, desc="checking"):
        scenario, _ = client.generate(row["task"], row["seed"], row["suite"],
                                      customer_variant=_asked(row.get("customer_variant")))
        changed = [name for name in STORED_SCENARIO if _as_stored(name, scenario.get(name)) != row[name]]
        GoldPath(send, scenario).play()
        answer = client.evaluate(scenario["id"])
        played = {key: answer[key] for key in SCORES}
        stored = {key: row[key] for key in SCORES}
        if changed:
            what = f"the scenario made again differs in {', '.join(changed)}"
        elif played != GOLD_SCORE:
            what = f"its gold path scores {played} now"
        elif row["method"] == "oracle" and stored != GOLD_SCORE:
            what = f"the oracle's episode stored {stored}, its gold path scores {played}"
        else:
            continue
        mismatches.append(Mismatch(row["suite"], row["task"], row["seed"], what))
    return mismatches


def _as_stored(column: str, value) -> str:
    return value if column == "instruction" else as_json(value)


def check_in_browser(rows: list[dict], server_url: str, operator_token: str, quiet: bool = False) -> list[Mismatch]:
    """Each row's own actions played again through the browser; the rows whose score differs."""
    mismatches = []
    host = BrowserHost()  # Chromium on a thread of its own: a caller's own Playwright is left alone
    envs = {}
    try:
        for row in tqdm(rows, unit="episode", disable=quiet, desc="checking"):
            suite, channel = row["suite"], row.get("channel") or SAY_CHANNEL  # how its call was held
            if (suite, channel) not in envs:
                options = PROTOCOLS[suite].env_options(channel)
                envs[suite, channel] = host.environment(
                    lambda browser, options=options: CrmEnv(server_url, browser=browser, operator_token=operator_token,
                                                            **options))
            played = _replay(envs[suite, channel], row)
            stored = {key: row[key] for key in SCORES}
            if played != stored:
                mismatches.append(Mismatch(suite, row["task"], row["seed"], f"stored {stored}, played now {played}"))
    finally:
        for env in envs.values():
            env.close()
        host.close()
    return mismatches


class StoredActions(Policy):
    """The actions a row stored, in order; STOP once they run out."""

    def __init__(self, actions: list[str]):
        self.actions = list(actions)

    def reset(self, scenario: dict) -> None:
        pass  # the actions were given with the row

    def act(self, observation) -> tuple[str, str]:
        return "as stored", self.actions.pop(0) if self.actions else "STOP"


def _replay(env, row: dict) -> dict:
    spec = EpisodeSpec(row["method"], row["task"], row["seed"], ui_variant=_asked(row["ui_variant"]) or "",
                       customer_variant=_asked(row.get("customer_variant")) or "")
    metrics = play_episode(env, StoredActions(row["actions"]), spec).metrics
    return {"success": int(metrics.get("success") or 0), "task_progress": float(metrics.get("task_progress") or 0.0)}


def _asked(variant: int | None) -> str | None:
    """A row's variant as asked for again (None for 0: as the scenario was first made)."""
    return str(variant) if variant else None


def describe(mismatches: list[Mismatch], rows: int, browser: bool) -> str:
    how = "their own actions played through the browser" if browser else "their gold paths played over the API"
    if not mismatches:
        return f"All {rows} exported episodes check out ({how})."
    return "\n".join([f"{len(mismatches)} of {rows} exported episodes do not check out ({how}):", *map(str, mismatches)])
