"""Synthetic run folders for the report's tests and benchmark: trajectories shaped like the
runner's (agent/experiment/runner.py) for several labels, with LLM-style steps (model calls with prompts and
replies), failures, crashes, incomplete and unreadable files. Deterministic for a given seed.
They are made-up data for testing the report, not results of any model."""
from __future__ import annotations

import json
import random
from pathlib import Path

GOLD_COUNTS = {"TASK_FIND_FLIGHT": 5, "TASK_BOOK_FLIGHT": 20, "TASK_FIND_BOOKING": 3, "TASK_CANCEL_FLIGHT": 6,
               "TASK_UPDATE_PASSENGER_DETAILS": 7, "TASK_MODIFY_FLIGHT": 11}
LABELS = ("flat-zero-shot", "heap-few-shot", "step-few-shot")
HOSTILE = '<script>document.title = "hacked"</script><img src="https://example.com/x.png">'
SYSTEM = "You operate an airline CRM. Answer REASON: then ACTION:.\n" + "Rules and examples.\n" * 40


def write_run(out: Path, labels=LABELS, tasks=tuple(GOLD_COUNTS), seeds: int = 3, trials: int = 1,
              seed: int = 0, broken: bool = True) -> list[Path]:
    """Write one trajectory per (label, task, seed, trial) under `out`; with `broken`, the first
    label's first task also gets a crashed, an incomplete and an unreadable episode."""
    rng = random.Random(seed)
    paths = []
    for label in labels:
        for task in tasks:
            for scenario_seed in range(seeds):
                for trial in range(trials):
                    trajectory = episode(rng, label, task, scenario_seed, trial)
                    paths.append(_write(out, trajectory))
    if broken:
        label, task = labels[0], tasks[0]
        crashed = {**_identity(label, task, seeds, 0), "complete": False,
                   "crash": "Traceback (most recent call last):\n  ...\nTimeoutError: page.click: Timeout 15000ms exceeded"}
        incomplete = {**_identity(label, task, seeds + 1, 0), "complete": False}
        paths += [_write(out, crashed), _write(out, incomplete)]
        unreadable = out / label / task / f"seed{seeds + 2}-trial0.json"
        unreadable.write_text('{"method": "flat", "steps": [')
        paths.append(unreadable)
    return paths


def episode(rng: random.Random, label: str, task: str, seed: int, trial: int, max_steps: int = 30) -> dict:
    gold = [{"action": "click" if i % 3 == 2 else "fill", "target": f"field-{i}", "label": f"Field {i}",
             **({} if i % 3 == 2 else {"value": f"value {i}"})} for i in range(GOLD_COUNTS.get(task, 6))]
    skill = {"flat-zero-shot": 0.55, "heap-few-shot": 0.75}.get(label, 0.85)
    matched = [False] * len(gold)
    steps, usage = [], {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0, "cached_calls": 0}
    met = 0
    cause = "max_steps"
    for number in range(1, max_steps + 1):
        if met == len(gold) or rng.random() < 0.04:
            steps.append(_step(rng, number, "STOP [done]", None, matched, met, len(gold), usage, first=number == 1))
            cause = "stop" if rng.random() < 0.9 else "policy_halt"
            break
        error = None if rng.random() < skill else f"CLICK {number + 40} failed: no element with id {number + 40}"
        if error is None:
            met += 1
            if gold[met - 1]["action"] == "click" or met == len(gold):
                matched = [i < met for i in range(len(gold))]
        action = error.split(" failed")[0] if error else f"CLICK {number + 5}"
        steps.append(_step(rng, number, action, error, matched, met, len(gold), usage, first=number == 1))
    success = int(all(matched))
    metrics = {"success": success, "task_progress": round(sum(matched) / len(gold), 4),
               "num_actions": len(steps) - (cause != "max_steps"), "gold_actions": gold, "matched": matched,
               "state_check": {"passed": bool(success), "reason": "the goal holds and nothing else changed" if success
                               else "the booking is unchanged"}}
    return {**_identity(label, task, seed, trial),
            "settings": {"model": "synthetic-model", "temperature": 0.3, "max_steps": 60, "protocol": "full"},
            "scenario": {"id": f"syn{seed}{trial}", "scenario": task, "instruction": f"Do {task} for seed {seed}.",
                         "conversation": [{"role": "CUS", "text": f"Hello {HOSTILE}"}, {"role": "REP", "text": "Sure."}],
                         "details": {"confirmation-code": "ABC123", "passenger": {"firstname": "Ada"}},
                         "gold_actions": gold},
            "reset_timings": {"total_ms": 250.0}, "steps": steps, "answer": "done", "final_observation": _page(0),
            "metrics": metrics, "usage": usage, "end": {"cause": cause, "detail": "synthetic"},
            "seconds": round(len(steps) * 1.7, 3), "complete": True}


def _step(rng, number, action, error, matched, met, gold_count, usage, first) -> dict:
    prompt, completion = 900 + rng.randint(0, 300), 40 + rng.randint(0, 40)
    for key, value in (("prompt_tokens", prompt), ("completion_tokens", completion), ("calls", 1)):
        usage[key] += value
    call = {"policy": "FLAT", "prompt_chars": len(SYSTEM) + 1800, "prompt_tokens": prompt,
            "completion_tokens": completion, "cached": False, "seconds": 0.8, "system_prompt": "a1b2c3d4e5f6",
            "user_prompt": f"TASK: ...\nCURRENT PAGE:\n{_page(number)}", "reply": f"REASON: next {HOSTILE}\nACTION: {action}"}
    policy = {"prompt_chars": call["prompt_chars"], "model_calls": [call], "stack": ["FLAT"]}
    if first:
        policy["system_prompts"] = {"a1b2c3d4e5f6": SYSTEM}
    return {"observation": _page(number), "url": "http://127.0.0.1:5000/?scenario=syn", "reason": f"Step {number} {HOSTILE}",
            "action": action, "tokens": {"observation": 150, "prompt_tokens": prompt, "completion_tokens": completion},
            "policy": policy, "error": error,
            "timings": {"policy_ms": 800.0, "action_ms": 40.0, "observe_ms": 8.0, "evaluate_ms": 9.0, "total_ms": 857.0},
            "metrics": {"success": int(all(matched)), "task_progress": round(sum(matched) / gold_count, 4),
                        "num_actions": number, "matched": list(matched)}}


def _page(number: int) -> str:
    return "\n".join(["<text id=1>AirlineCRM</text>", "<link id=3>Find booking</link>",
                      f"<input id=6 text From value=\"JFK {number}\"/>", "<button id=13>Search flights</button>"] * 4)


def _identity(label: str, task: str, seed: int, trial: int) -> dict:
    method, _, rest = label.partition("-")
    return {"method": method, "shots": "few" if "few" in rest else ("0" if rest else ""), "label": label,
            "task": task, "seed": seed, "trial": trial}


def _write(out: Path, trajectory: dict) -> Path:
    path = out / trajectory["label"] / trajectory["task"] / f"seed{trajectory['seed']}-trial{trajectory['trial']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(trajectory, indent=1))
    return path


def write_outcomes(out: Path, label: str, outcomes: dict[tuple[str, int, int], int], protocol: str = "full",
                   max_steps: int = 60, usage: dict | None = None, ui_variant: int = 0,
                   channel: str | None = None, customer_variant: int | None = None,
                   violations: dict[tuple[str, int, int], list[dict]] | None = None) -> None:
    """A run folder of short finished episodes whose success is given: (task, seed, trial) -> 0 or 1
    (progress 1.0 for a success, else 0.5), played in `ui_variant` (on a call, through `channel`, with
    the caller of `customer_variant`; None: none asked for); with `violations`, expert calls judged
    for violations, those of each episode (none where it names none)."""
    settings = {"model": None, "temperature": None, "max_steps": max_steps, "protocol": protocol,
                **({"channel": channel} if channel else {})}
    for (task, seed, trial), success in outcomes.items():
        _write(out, {**_identity(label, task, seed, trial), "observations": ["elements"], "complete": True,
                     "settings": settings,
                     "scenario": {"id": f"s{seed}", "scenario": task, "gold_actions": [],
                                  **({"ui_variant": ui_variant} if ui_variant else {}),
                                  **({"customer_variant": customer_variant} if customer_variant is not None else {})},
                     "metrics": {"success": success, "task_progress": 1.0 if success else 0.5, "num_actions": 3,
                                 **({"violations": violations.get((task, seed, trial), [])}
                                    if violations is not None else {})},
                     "usage": usage or {}, "end": {"cause": "stop"}, "steps": []})
