"""The taskset's tasks, read off the CRM behind the OpenEnv server (GET /api/suites), and its clear
errors for a suite or split the CRM has not."""
from __future__ import annotations

import json
import urllib.request

import pytest

from airlinecrm_verifiers.taskset import SYSTEM_PROMPT, AirlineCrmConfig, AirlineCrmTaskset


def suites(crm_url: str) -> dict[str, list[dict]]:
    with urllib.request.urlopen(f"{crm_url}/api/suites", timeout=30) as answer:
        return {suite["name"]: suite["tasks"] for suite in json.load(answer)["suites"]}


def test_the_hard_suite_gives_one_task_per_task_and_seed_each_an_openenv_reset(openenv_side):
    config = AirlineCrmConfig(openenv_url=openenv_side["openenv_url"], crm_url=openenv_side["crm_url"],
                              first_seed=5, seeds=2)
    tasks = list(AirlineCrmTaskset(config))
    names = [row["name"] for row in suites(openenv_side["crm_url"])["hard"]]
    assert len(names) == 12 and len(tasks) == 24
    assert [task.data.reset for task in tasks[:2]] == [{"suite": "hard", "task": names[0], "seed": 5},
                                                       {"suite": "hard", "task": names[0], "seed": 6}]
    assert [task.data.name for task in tasks[:2]] == [f"hard/{names[0]}#5", f"hard/{names[0]}#6"]
    assert {task.data.openenv_url for task in tasks} == {openenv_side["openenv_url"]}
    assert tasks[0].data.system_prompt == SYSTEM_PROMPT and "message_customer" in SYSTEM_PROMPT


def test_the_expert_suite_s_test_split_gives_its_test_templates_only(openenv_side):
    config = AirlineCrmConfig(crm_url=openenv_side["crm_url"], suite="expert", split="test")
    tasks = list(AirlineCrmTaskset(config))
    expert = suites(openenv_side["crm_url"])["expert"]
    assert [task.data.reset["task"] for task in tasks] == [row["name"] for row in expert if row["split"] == "test"]
    assert 0 < len(tasks) < len(expert)
    assert {task.data.reset["split"] for task in tasks} == {"test"}


@pytest.mark.parametrize("options, message", [
    ({"suite": "nope"}, "unknown suite 'nope': the CRM has "),
    ({"suite": "expert", "split": "validation"}, "unknown split 'validation': choose one of train, test"),
    ({"suite": "hard", "split": "test"}, "the hard suite has no test split (only the expert suite is split)"),
])
def test_a_suite_or_split_the_crm_has_not_is_a_clear_error(openenv_side, options, message):
    with pytest.raises(ValueError) as error:
        list(AirlineCrmTaskset(AirlineCrmConfig(crm_url=openenv_side["crm_url"], **options)))
    assert str(error.value).startswith(message)
