"""Reading an exported dataset back as finished episodes, so that `compare` and `leaderboard` rank
results shared as Parquet like run folders: each row becomes a Trajectory with the row's identity,
suite (as its protocol), UI and customer variants (0 where an older export has no column) and
final /evaluate answer. What an export does not keep (the step cap, the observation modes, token
usage) stays unknown."""
from __future__ import annotations

import json
from pathlib import Path

from ..episode.trajectory import Trajectory
from ..episode.variants import DIMENSIONS
from .layout import DATA

class NeedsExport(RuntimeError):
    """pyarrow is missing: the export extra is not installed."""


COLUMNS = ("suite", "task", "seed", "trial", "method", "label", "ui_variant", "customer_variant", "channel", "success",
           "task_progress", "num_actions", "evaluation")
CARD = "README.md"


def is_dataset(folder: Path) -> bool:
    return any((folder / DATA).rglob("*.parquet"))


def read_episodes(folder: Path) -> list[Trajectory]:
    """Every row of the dataset in `folder` as a finished episode (pyarrow, of the export extra,
    imported here: the other commands run without it)."""
    try:
        import pyarrow.parquet  # noqa: F401  (read_columns uses it)
    except ModuleNotFoundError:
        raise NeedsExport("reading an exported dataset needs the export extra: pip install 'airlinecrm[export]'") \
            from None
    rows = [row for path in sorted((folder / DATA).rglob("*.parquet")) for row in read_columns(path, COLUMNS)]
    return [_episode(row) for row in rows]


def read_columns(path: Path, columns) -> list[dict]:
    """The rows of one Parquet file, with those of `columns` it has (a dataset exported before the
    channel column has none)."""
    import pyarrow.parquet as pq

    present = set(pq.read_schema(path).names)
    return pq.read_table(path, columns=[column for column in columns if column in present]).to_pylist()


def _episode(row: dict) -> Trajectory:
    metrics = {**json.loads(row["evaluation"] or "{}"), "success": row["success"],
               "task_progress": row["task_progress"], "num_actions": row["num_actions"]}
    return Trajectory(row["method"], "", row["label"], row["task"], row["seed"], row["trial"], observations=[],
                      settings={"protocol": row["suite"], "max_steps": None,
                                **({"channel": row["channel"]} if row.get("channel") else {}),
                                # the rules the call was scored by, as /evaluate named them (none before issue 53)
                                **({"scoring_version": metrics["scoring_version"]}
                                   if "scoring_version" in metrics else {})}, complete=True,
                      scenario={d.field: row.get(d.field) or 0 for d in DIMENSIONS}, metrics=metrics)


def read_provenance(folder: Path) -> dict:
    """The provenance the dataset card holds (its JSON block), {} when there is none."""
    card = folder / CARD
    text = card.read_text(encoding="utf-8") if card.exists() else ""
    start = text.find("```json\n")
    end = text.find("\n```", start + 1)
    if start < 0 or end < 0:
        return {}
    try:
        found = json.loads(text[start + len("```json\n"):end])
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}
