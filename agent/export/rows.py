"""One row per episode, the same schema for the oracle's exported scenarios and for any run's
trajectories: the scenario (suite, task, seed, briefing, hidden details, gold UI steps and gold API
calls), the episode step by step (observations, actions, progress, the screenshot after each step
where the run kept one) and the final /evaluate answer. Nested objects whose keys differ from
task to task (details, gold steps, the answer) are JSON text; nothing that differs between two
plays of the same episode (times, scenario ids, addresses) is kept, so exports are reproducible."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa

from ..env.recording import screenshot_name
from ..episode.run_folder import assets_folder
from ..episode.trajectory import Trajectory
from ..episode.variants import CUSTOMER, UI
from ..experiment.protocols import protocol_of

IMAGE = pa.struct([("bytes", pa.binary()), ("path", pa.string())])  # the layout of an image column
STEP = pa.struct([
    ("observation", pa.string()), ("modes", pa.string()), ("reason", pa.string()), ("action", pa.string()),
    ("error", pa.string()), ("customer", pa.string()), ("task_progress", pa.float64()), ("success", pa.int64()),
    ("screenshot_after", IMAGE),
])
SCHEMA = pa.schema([
    ("suite", pa.string()), ("task", pa.string()), ("seed", pa.int64()), ("trial", pa.int64()),
    ("method", pa.string()), ("label", pa.string()), ("ui_variant", pa.int64()),
    ("customer_variant", pa.int64()), ("channel", pa.string()),
    ("instruction", pa.string()), ("conversation", pa.string()), ("details", pa.string()),
    ("initial_state", pa.string()), ("gold_actions", pa.string()), ("gold_calls", pa.string()),
    ("steps", pa.list_(STEP)), ("final_observation", pa.string()), ("answer", pa.string()),
    ("success", pa.int64()), ("task_progress", pa.float64()), ("num_actions", pa.int64()),
    ("end_cause", pa.string()), ("evaluation", pa.string()),
])
# A card number's or security code's digest keyed by the server's own secret (scenarios/card_data.py):
# another on every server, so the export keeps only what precedes it ("****1111", "hmac").
KEYED_DIGEST = re.compile(r"(hmac|\*{4}\d{4}):[0-9a-f]{32}")
COLUMNS = {
    "suite": "the scenario suite (full, paper, hard)", "task": "the task", "seed": "the scenario's seed",
    "trial": "which replay of the scenario", "method": "the agent method that played it", "label": "its run label",
    "ui_variant": "the CRM's UI variant it was played in (0: the papers' page)",
    "customer_variant": "the caller's variant it was played in (scenarios/customer/variants/; 0: the plain caller)",
    "channel": "how the customer on the line reached the agent: say (SAY and TRANSFER, or the API's tools), "
               "page (the page's Call panel alone); empty without a customer",
    "instruction": "the briefing the agent was given", "conversation": "the customer's conversation (JSON)",
    "details": "the scenario's hidden facts (JSON)",
    "initial_state": "the bookings the scenario starts from, by confirmation code (JSON; null when the run "
                     "was played without the operator token)",
    "gold_actions": "the gold UI steps (JSON)",
    "gold_calls": "the gold API calls (JSON)",
    "steps": "per step: the observation (elements), other observation modes (JSON), the reason and action, "
             "the action's error, the customer's reply, progress and success after it, the screenshot after it",
    "final_observation": "the page after the last step", "answer": "the agent's final answer",
    "success": "1 if the episode succeeded", "task_progress": "the share of gold steps done",
    "num_actions": "actions as the scoring counts them", "end_cause": "why the episode ended",
    "evaluation": "the final /evaluate answer, without the scenario's id (JSON)",
}


def episode_row(trajectory: Trajectory, path: Path | None = None) -> dict:
    """The row of a finished episode; `path` (its trajectory file) finds its screenshots."""
    scenario, metrics = trajectory.scenario, trajectory.metrics
    shots = assets_folder(path) if path else None
    return {
        "suite": protocol_of(trajectory.settings).name, "task": trajectory.task, "seed": trajectory.seed,
        "trial": trajectory.trial, "method": trajectory.method, "label": trajectory.label,
        "ui_variant": UI.of(scenario), "customer_variant": CUSTOMER.of(scenario),
        "channel": (trajectory.settings or {}).get("channel") or "",
        "instruction": scenario.get("instruction") or "",
        "conversation": as_json(scenario.get("conversation")), "details": as_json(scenario.get("details")),
        "initial_state": as_json(scenario.get("initial_state")),
        "gold_actions": as_json(trajectory.gold_actions), "gold_calls": as_json(scenario.get("gold_calls") or []),
        "steps": [_step(step, number, shots) for number, step in enumerate(trajectory.steps, start=1)],
        "final_observation": trajectory.final_observation, "answer": trajectory.answer,
        "success": int(metrics.get("success") or 0), "task_progress": float(metrics.get("task_progress") or 0.0),
        "num_actions": int(metrics.get("num_actions") or 0), "end_cause": trajectory.end.get("cause", ""),
        "evaluation": KEYED_DIGEST.sub(r"\1", as_json({key: value for key, value in metrics.items() if key != "id"})),
    }


def _step(step: dict, number: int, shots: Path | None) -> dict:
    metrics = step.get("metrics") or {}
    shot = shots / screenshot_name(number) if shots else None
    return {
        "observation": step.get("observation", ""), "modes": as_json(step.get("modes") or {}),
        "reason": step.get("reason", ""), "action": step.get("action", ""), "error": step.get("error"),
        "customer": step.get("customer"), "task_progress": float(metrics.get("task_progress") or 0.0),
        "success": int(metrics.get("success") or 0),
        "screenshot_after": {"bytes": shot.read_bytes(), "path": shot.name} if shot and shot.exists() else None,
    }


def as_json(value) -> str:
    """A column's JSON text (keys sorted: the same value always gives the same bytes)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
