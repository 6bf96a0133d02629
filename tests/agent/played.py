"""Reading what a run wrote, to compare runs: its trajectories by (task, seed), and what each
episode did and scored."""
from __future__ import annotations

import json
from pathlib import Path


def trajectories(out: Path, label: str) -> dict[tuple[str, int], dict]:
    return {(t["task"], t["seed"]): t for t in (json.loads(p.read_text()) for p in out.glob(f"{label}/*/*.json"))}


def played(trajectory: dict) -> list:
    """What an episode did and scored, step by step (timings and the scenario instance's id aside)."""
    scored = {key: value for key, value in trajectory["metrics"].items() if key != "id"}
    return [(s["action"], s["error"], s["metrics"]) for s in trajectory["steps"]] + [scored]
