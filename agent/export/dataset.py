"""Writing rows as the dataset: DIR/data/<suite>/<task>.parquet (each suite a config of the dataset
card, each task a split of it) and DIR/README.md, the card. The same rows give the same bytes: rows
in a fixed order, no pandas metadata, the card's provenance without times."""
from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ..results.summary import task_order
from .card import dataset_card
from .layout import DATA
from .rows import SCHEMA


def write_dataset(rows: list[dict], out: Path, provenance: dict) -> list[Path]:
    """Write the dataset to `out` (its data folder replaced); the Parquet files written."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(out / DATA, ignore_errors=True)
    parts: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in sorted(rows, key=_order):
        parts[(row["suite"], row["task"])].append(row)
    written = []
    for (suite, task), part in parts.items():
        path = out / DATA / suite / f"{task}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist(part, schema=SCHEMA), path, compression="zstd")
        written.append(path)
    (out / "README.md").write_text(dataset_card(sorted(parts), provenance, len(rows)), encoding="utf-8")
    return written


def _order(row: dict) -> tuple:
    return (row["suite"], task_order(row["task"]), row["label"], row["ui_variant"], row["customer_variant"],
            row["seed"], row["trial"])
