"""The default action cap of a task: room for its gold path in the method's action space.

A task's gold path is counted in the actions a method takes (`Policy.action_space`): `elements`
(one action per gold step: CLICK, TYPE, SAY) or `coordinates` (a click at a box is one action,
typing into a field four: click, select all, type, Tab). On the page channel each line to the
customer is typed into the Call panel and sent, a transfer made on its screen, and the call ended
with End call (agent/policies/oracle.on_the_page). The cap is twice the longest gold path over
GOLD_SEEDS (EXPERT_GOLD_SEEDS for the expert suite's templates) plus ten, as CUBE's `recommended_max_steps` (integrations/cube/), and never below
FULL_MAX_STEPS, the cap of before. The longest paths are data (step_caps.json), written from the
scenarios themselves:

    .venv/bin/python -m agent.experiment.step_caps      # rewrites step_caps.json

and tests/agent/test_step_caps.py checks that the file still says what the scenarios say.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from scenarios.steps import CALL_STEPS
from scenarios.targets import kind_of

from ..env.actions import PAGE_CHANNEL, SAY_CHANNEL

ELEMENTS, COORDINATES = "elements", "coordinates"
SPACES = (ELEMENTS, COORDINATES)
GOLD_SEEDS = range(10)
# The expert suite's templates draw request i's branch from seed + i, and no kind has more than five
# branches: five seeds meet every branch of every request.
EXPERT_GOLD_SEEDS = range(5)


def gold_seeds(suite: str) -> range:
    """The seeds whose gold paths a task's cap covers."""
    return EXPERT_GOLD_SEEDS if suite == "expert" else GOLD_SEEDS
STEP_CAP_FACTOR, STEP_CAP_EXTRA = 2, 10
MINIMUM = 60  # FULL_MAX_STEPS (protocols.py): a default cap is never below the one of before
CAPS_FILE = Path(__file__).with_name("step_caps.json")
ONE_CLICK_KINDS = ("choice", "flight")  # fields set by clicking an option (a radio, a flight's row)
TYPED = 4  # coordinates: click the field, Control+a, the text, Tab


def gold_length(steps: list[dict], space: str, channel: str = SAY_CHANNEL) -> int:
    """The number of actions the gold steps take in `space`, the call held on `channel`."""
    actions = []
    for step in steps:
        if step["action"] in CALL_STEPS and channel == PAGE_CHANNEL:
            actions += ["fill", "click"] if step["action"] == "say" else ["click", "fill", "click"]
        else:
            actions.append("call" if step["action"] in CALL_STEPS else step["action"] if step["action"] == "click"
                           else "choose" if kind_of(step["target"]) in ONE_CLICK_KINDS else "fill")
    if channel == PAGE_CHANNEL and any(step["action"] in CALL_STEPS for step in steps) and \
            not any(step["action"] == "transfer" for step in steps):
        actions.append("click")  # End call
    return sum(TYPED if action == "fill" and space == COORDINATES else 1 for action in actions)


def keys(channel: str) -> list[str]:
    """The lengths a task records: each action space, with the call on `channel`."""
    return [space if channel == SAY_CHANNEL else f"{space} {channel}" for space in SPACES]


@lru_cache(maxsize=1)
def longest_paths() -> dict[str, dict[str, dict[str, int]]]:
    """suite -> task -> "<space>[ page]" -> the longest gold path over GOLD_SEEDS, in actions."""
    return json.loads(CAPS_FILE.read_text())


def default_cap(suite: str, task: str, space: str, channel: str = SAY_CHANNEL) -> int:
    """A task's cap for a method acting in `space`: twice its longest gold path plus ten, at least
    MINIMUM (a task the file does not know gets MINIMUM)."""
    key = space if channel == SAY_CHANNEL else f"{space} {channel}"
    longest = longest_paths().get(suite, {}).get(task, {}).get(key, 0)
    return max(MINIMUM, STEP_CAP_FACTOR * longest + STEP_CAP_EXTRA)


def measured(client, suites=("full", "hard", "expert")) -> dict:
    """The longest gold paths of every task of `suites`, from the scenarios the CRM of `client` makes
    (agent.crm.client.ScenarioClient with the operator token)."""
    from scenarios.suites import SUITES

    found = {}
    for suite in suites:
        channels = (SAY_CHANNEL, PAGE_CHANNEL) if SUITES[suite].hidden_details else (SAY_CHANNEL,)
        paths = {task: [client.generate(task, seed, suite)[0]["gold_actions"] for seed in gold_seeds(suite)]
                 for task in SUITES[suite].task_names}
        found[suite] = {task: {key: max(gold_length(steps, space, channel) for steps in gold)
                               for channel in channels for space, key in zip(SPACES, keys(channel))}
                        for task, gold in paths.items()}
    return found


def main() -> None:
    from scenarios.app import embedded_server

    from ..crm.client import ScenarioClient

    with embedded_server() as server:
        client = ScenarioClient(server.url, operator_token=server.app.config.get("OPERATOR_TOKEN"))
        CAPS_FILE.write_text(json.dumps(measured(client), indent=1, sort_keys=True) + "\n")
    print(f"wrote {CAPS_FILE}")


if __name__ == "__main__":
    main()
