"""`export check`: every exported scenario played again by the oracle, through the browser, on a
fresh embedded server; its score must be the stored one."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
from tqdm import tqdm

from ..env.browser_env import CrmEnv
from ..env.browser_host import BrowserHost
from ..experiment.protocols import PROTOCOLS
from ..policies import make_policy
from .dataset import DATA

SCORES = ("success", "task_progress")


@dataclass(frozen=True)
class Mismatch:
    suite: str
    task: str
    seed: int
    stored: dict
    played: dict

    def __str__(self) -> str:
        return f"{self.suite} {self.task} seed {self.seed}: stored {self.stored}, played now {self.played}"


def exported_rows(folder: Path) -> list[dict]:
    """The rows of the dataset in `folder` (its data/ Parquet files); ValueError if there are none."""
    files = sorted((folder / DATA).rglob("*.parquet"))
    if not files:
        raise ValueError(f"{folder} holds no exported dataset (no {DATA}/**/*.parquet)")
    columns = ["suite", "task", "seed", "ui_variant", *SCORES]
    return [row for path in files for row in pq.read_table(path, columns=columns).to_pylist()]


def check_rows(rows: list[dict], server_url: str, operator_token: str, quiet: bool = False) -> list[Mismatch]:
    """Play each row's scenario with the oracle on the server; the rows whose score differs."""
    mismatches = []
    host = BrowserHost()  # Chromium on a thread of its own: a caller's own Playwright is left alone
    envs = {}
    try:
        for row in tqdm(rows, unit="scenario", disable=quiet, desc="checking"):
            suite = row["suite"]
            if suite not in envs:
                options = PROTOCOLS[suite].env_options()
                envs[suite] = host.environment(
                    lambda browser, options=options: CrmEnv(server_url, browser=browser, operator_token=operator_token,
                                                            **options))
            played = _play(envs[suite], row)
            stored = {key: row[key] for key in SCORES}
            if played != stored:
                mismatches.append(Mismatch(suite, row["task"], row["seed"], stored, played))
    finally:
        for env in envs.values():
            env.close()
        host.close()
    return mismatches


def _play(env, row: dict) -> dict:
    obs, info = env.reset(task=row["task"], seed=row["seed"], **_variant(row))
    oracle = make_policy("oracle")
    oracle.reset(info["scenario"])
    for _ in range(env.max_steps):
        obs, _, terminated, truncated, info = env.step(oracle.act(obs)[1])
        if terminated or truncated:
            break
    return {"success": int(info["metrics"].get("success") or 0),
            "task_progress": float(info["metrics"].get("task_progress") or 0.0)}


def _variant(row: dict) -> dict:
    return {"ui_variant": str(row["ui_variant"])} if row["ui_variant"] else {}


def describe(mismatches: list[Mismatch], rows: int) -> str:
    if not mismatches:
        return f"All {rows} exported scenarios score as stored."
    return "\n".join([f"{len(mismatches)} of {rows} exported scenarios score otherwise than stored:",
                      *map(str, mismatches)])
