"""The settings that change an episode's result: the one list of them.

Every trajectory records `result_settings(...)` of its episode, and a run that resumes into an
output folder refuses when a finished episode there was made with other ones, so that one folder
never mixes the results of, say, two models. The method and its shots are not in here: they name
the folder an episode is written to. A setting that changes results is added here, and only here.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from scenarios.conversation_scoring import SCORING_VERSION
from scenarios.suites import has_knowledge_base

from ..crm.tools import tool_names
from ..env.actions import SAY_CHANNEL
from ..episode.variants import DIMENSIONS
from ..policies import environment_of, uses_model
from .protocols import DEFAULT as PROTOCOL  # the task protocol (protocols.py)
from .protocols import PROTOCOLS


def result_settings(method: str, options: dict, shots: str = "0") -> dict:
    """What the episode's result depends on besides its method, shots, task and seed. `options` are
    the run's options by their command-line names (`model`, `temperature`, `max_steps`, ...); a
    method without a model records none, and a method's own settings are recorded for it alone."""
    model = uses_model(method)  # the LLM methods; the oracle has neither prompts nor model
    settings = {
        "model": options.get("model") if model else None,
        "temperature": options.get("temperature") if model else None,
        "max_steps": options.get("max_steps"),
        "protocol": options.get("protocol", PROTOCOL),
    }
    for dimension in DIMENSIONS:  # the UI and customer variants asked for; none: the CRM and caller as always
        if options.get(dimension.field):
            settings[dimension.field] = options[dimension.field]
    if _on_call(settings["protocol"]):  # how the call reaches the agent: SAY and TRANSFER, or the page alone
        settings["channel"] = options.get("channel") or SAY_CHANNEL
        settings["scoring_version"] = SCORING_VERSION  # the rules the call is scored by
    if settings["protocol"] == "paper":  # the paper protocol shows the conversation only when asked
        settings["conversation"] = bool(options.get("conversation"))
    if method == "synapse" and shots == "few":  # its exemplars come from the memory, ranked by the retriever
        settings.update(embedding_model=options.get("embedding_model"), memory=_memory_digest(options.get("memory")))
    if method == "webwise" and shots == "auto":  # its examples come from this many zero-shot trials per task
        settings["auto_trials"] = options.get("auto_trials")
    if environment_of(method) == "api":  # toolcall: the tools it is offered, its work scored as API calls
        protocol = PROTOCOLS.get(settings["protocol"])
        settings.update(tools=list(tool_names(_on_call(settings["protocol"]), has_knowledge_base(protocol and protocol.suite))),
                        modality="api")
    return settings


def _on_call(protocol: str) -> bool:
    return PROTOCOLS[protocol].on_call if protocol in PROTOCOLS else False


def _memory_digest(folder: str | None) -> str | None:
    """An exemplar memory by its content (memory.json), so a rebuilt memory counts as another setting."""
    if not folder:
        return None
    path = Path(folder) / "memory.json"
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else None


def with_implied(settings: dict | None) -> dict | None:
    """A trajectory's settings with what an older version left unsaid: before the page channel, a
    call with a customer was always held with SAY; before issue 53 it was scored by the call's
    scoring version 1."""
    if settings is None or not _on_call(settings.get("protocol") or PROTOCOL):
        return settings
    return {"channel": SAY_CHANNEL, "scoring_version": 1, **settings}


def differences(recorded: dict | None, wanted: dict) -> list[str]:
    """The settings in which `recorded` (a trajectory's) differs from `wanted`, in words."""
    if recorded is None:
        return ["it records no settings (made by an older version)"]
    recorded = with_implied(recorded)
    return [f"{key} {recorded.get(key)!r} (this run: {wanted.get(key)!r})"
            for key in sorted(set(recorded) | set(wanted)) if recorded.get(key) != wanted.get(key)]
