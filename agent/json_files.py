"""JSON files that readers may open at any moment: written whole or not at all.

Every JSON file the harness writes (trajectories, run.json, the model's response cache, an exemplar
memory, WebWISE's chosen examples) goes through `write_json`, which writes a temporary file beside
the target and renames it over the target, so a reader (a resumed run, the report, another thread)
never sees half a file. `read_json_object` is the matching tolerant reader.
"""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path


def write_json(path: Path, data, indent: int | None = 1) -> None:
    """Write `data` to `path` atomically, making its folder if needed; safe across threads and processes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.tmp{os.getpid()}-{threading.get_ident()}")
    temporary.write_text(json.dumps(data, indent=indent, ensure_ascii=False))
    temporary.replace(path)


def read_json_object(path: Path, strict: bool = False) -> dict | None:
    """The JSON object in `path`; None when the file is missing, unreadable or holds something else
    (with `strict`, OSError or ValueError saying which)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        if strict:
            raise
        return None
    if not isinstance(data, dict):
        if strict:
            raise ValueError("it does not hold a JSON object")
        return None
    return data
