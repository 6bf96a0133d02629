"""The loop that plays one episode: a policy acting in an environment until the episode ends, and
the Trajectory it leaves (trajectory.py).

The environment (agent/env/) decides when an episode ends (the agent stops, the step cap, or a
success-detected stop); this loop records each step and why the episode ended.
"""
from __future__ import annotations

import datetime as dt
import time

from ..env.modes import modes_record
from ..env.progress import step_scores
from .policy import Policy, agent_view
from .spec import EpisodeSpec
from .trajectory import Trajectory

SCENARIO_FIELDS = ("id", "scenario", "instruction", "conversation", "details", "gold_actions", "gold_calls")
# kept only when the scenario has one (variant 0 says nothing; the initial state is the operator's)
SCENARIO_FIELDS_IF_ANY = ("ui_variant", "customer_variant", "initial_state")


def play_episode(env, policy: Policy, spec: EpisodeSpec, settings: dict | None = None) -> Trajectory:
    """One episode of `policy` in `env` (a CrmEnv, or an ApiEnv for a method working the API), at
    most `spec.max_steps` actions; `settings` are the result settings the trajectory records."""
    started, start_time = time.perf_counter(), _now()
    env.max_steps = spec.max_steps
    obs, info = env.reset(task=spec.task, seed=spec.seed, **spec.variants())
    scenario = info["scenario"]
    policy.reset(scenario if getattr(policy, "needs_gold", False) else agent_view(scenario, env.suite, env.action_set))
    steps, answer, spent, metrics = [], None, {}, info["metrics"]
    cause = {"cause": "max_steps", "detail": "the step limit was reached"}
    for _ in range(spec.max_steps):
        clock = time.perf_counter()
        reason, action = policy.act(obs)
        policy_ms = round((time.perf_counter() - clock) * 1000, 2)
        usage = policy.usage()
        record = {"observation": obs.text, "url": obs.url, "reason": reason, "action": action,
                  "tokens": {"observation": obs.tokens, **_delta(usage, spent)}}
        trace = policy.trace()
        if trace is not None:
            record["policy"] = trace
        if set(obs.modes) - {"elements"}:
            record["modes"] = modes_record(obs)
        spent = usage
        obs, _reward, terminated, truncated, step_info = env.step(action)
        record.update(error=step_info["error"], timings={"policy_ms": policy_ms, **step_info["timings"]},
                      metrics=step_scores(step_info["metrics"] or {}))
        if "result" in step_info:  # what a tool call got (the API environment)
            record["result"] = step_info["result"]
        if "customer" in step_info:  # the customer's reply to what the agent said
            record["customer"] = step_info["customer"]
        steps.append(record)
        if terminated or truncated:
            # the final answer; each step's scores, when the environment gives them at the end
            metrics = step_info["metrics"]  # nothing happens on the page later
            for earlier, scores in zip(steps, step_info.get("step_metrics") or []):
                earlier["metrics"] = scores
            answer = step_info["answer"]
            cause = _end_cause(record, terminated, step_info["succeeded"])
            break
    return Trajectory(
        **_identity(spec, settings), complete=True,
        scenario={**{k: scenario.get(k) for k in SCENARIO_FIELDS},
                  **{k: scenario[k] for k in SCENARIO_FIELDS_IF_ANY if k in scenario}}, reset_timings=info["timings"], steps=steps,
        answer=answer, final_observation=obs.text, metrics=metrics, agent_actions=_agent_actions(steps, cause),
        usage=spent, end=cause, policy_context=policy.episode_context(), started=start_time,
        seconds=round(time.perf_counter() - started, 3))


def crashed(spec: EpisodeSpec, settings: dict | None, reason: str) -> Trajectory:
    """The trajectory of an episode that broke off: incomplete, with the reason (played again on resume)."""
    return Trajectory(**_identity(spec, settings), complete=False, crash=reason)


def _identity(spec: EpisodeSpec, settings: dict | None) -> dict:
    return {"method": spec.method, "shots": spec.shots, "label": spec.label, "task": spec.task, "seed": spec.seed,
            "trial": spec.trial, "observations": list(spec.observations), "settings": settings}


def _end_cause(record: dict, terminated: bool, succeeded: bool = False) -> dict:
    """Why the episode ended: the agent stopped (or its policy halted itself), the server reported
    success after the action (a protocol that stops on success), or the step limit."""
    halt = record.get("policy", {}).get("halt")
    if succeeded:
        return {"cause": "success", "detail": f"/evaluate reported success after {record['action']}"}
    if terminated:
        return {"cause": "policy_halt", "detail": halt} if halt else {"cause": "stop", "detail": record["action"]}
    detail = record["error"] or record.get("policy", {}).get("reply_problem")
    return {"cause": "max_steps", "detail": f"last error: {detail}" if detail else "the step limit was reached"}


def _agent_actions(steps: list[dict], cause: dict) -> int:
    """The agent's actions, invalid ones included; a closing STOP (or policy halt) is not one."""
    return len(steps) - (cause["cause"] in ("stop", "policy_halt"))


def _delta(usage: dict, before: dict) -> dict:
    return {key: value - before.get(key, 0) for key, value in usage.items()}


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")
