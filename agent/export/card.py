"""The dataset card (DIR/README.md): the Hugging Face card's YAML header (a config per suite, a split
per task, the features), then what each column means, how the data were made and what may be done
with them."""
from __future__ import annotations

import json

import pyarrow as pa

from .rows import COLUMNS, IMAGE, SCHEMA


def dataset_card(parts: list[tuple[str, str]], provenance: dict, rows: int) -> str:
    suites = sorted({suite for suite, _ in parts})
    header = ["---", "license: other", "pretty_name: AirlineCRM episodes", "configs:"]
    for suite in suites:
        header += [f"- config_name: {suite}", "  data_files:"]
        header += [f"  - split: {task}\n    path: data/{suite}/{task}.parquet" for s, task in parts if s == suite]
    header += ["dataset_info:"]
    for suite in suites:
        header += [f"- config_name: {suite}", "  features:", *_features(SCHEMA, "  ")]
    header += ["---", ""]
    return "\n".join(header + _body(provenance, rows)) + "\n"


def _features(schema: pa.Schema, indent: str) -> list[str]:
    lines = []
    for field in schema:
        lines.append(f"{indent}- name: {field.name}")
        lines += _feature_type(field.type, indent + "  ")
    return lines


def _feature_type(kind: pa.DataType, indent: str) -> list[str]:
    if kind == IMAGE:
        return [f"{indent}dtype: image"]
    if pa.types.is_list(kind):
        return [f"{indent}list:", *_features(pa.schema(list(kind.value_type)), indent)]
    return [f"{indent}dtype: {_dtypes.get(str(kind), str(kind))}"]


_dtypes = {"string": "string", "int64": "int64", "double": "float64"}


def _body(provenance: dict, rows: int) -> list[str]:
    lines = ["# AirlineCRM episodes", "",
             f"{rows} episodes of AirlineCRM, a mock airline call-center CRM for web agents: each row is a "
             "scenario (its task, seed, briefing, hidden details, gold UI steps and gold API calls), the "
             "episode played in it step by step, and its score. Load it with",
             "", "```python", "import datasets",
             'episodes = datasets.load_dataset("parquet", data_dir="DIR")  # or: pyarrow.parquet.read_table',
             "```", "", "## Columns", "", "| column | meaning |", "| --- | --- |"]
    lines += [f"| `{name}` | {meaning} |" for name, meaning in COLUMNS.items()]
    lines += ["", "JSON columns hold text to `json.loads`; the scenario's people, cards and flights are made up "
              "by the simulator.", "", "## How it was made", "", "```json",
              json.dumps(provenance, indent=2, sort_keys=True, ensure_ascii=False), "```", "",
              "`python -m agent export check DIR` plays every exported scenario again on a fresh server and "
              "compares its score.", "", "## Licence", "",
              "The project states no licence yet: ask its authors before publishing the data elsewhere.", ""]
    return lines
