"""The hard suite's page channel (`--channel page`): the call reaches the agent through the page's
Call panel alone. The oracle solves every branch of the twelve hard tasks by typing its gold lines
into the panel, transferring on the Transfer to supervisor screen and ending the call with End
call; the verdicts and transcripts are those of the same lines said with SAY."""
import pytest
import requests

from agent.env.actions import PAGE_CHANNEL, SAY_CHANNEL
from agent.policies import make_policy
from scenarios.tasks import HARD_TASKS
from tests.agent.test_hard_oracle import BRANCH_SEEDS

VERDICT = ("success", "said_ok", "verified_first", "under_policy", "policy_violations", "transferred")


def play(env, method, task, seed, channel):
    """The method's episode of (task, seed) through `env`: (its last info, the actions it took)."""
    obs, info = env.reset(task=task, seed=seed)
    policy = make_policy(method, channel=channel)
    policy.reset(info["scenario"])
    actions = []
    for _ in range(env.max_steps):
        actions.append(policy.act(obs)[1])
        obs, _, terminated, truncated, info = env.step(actions[-1])
        assert info["error"] is None, (actions[-1], info["error"])
        if terminated or truncated:
            return info, actions
    pytest.fail("the episode did not end")


def transcript(server: str, scenario_id: str) -> list[dict]:
    answer = requests.get(f"{server}/api/customer/messages", headers={"X-Scenario-Id": scenario_id}, timeout=10)
    return answer.json()["messages"]


@pytest.mark.parametrize("task", HARD_TASKS)
def test_the_oracle_solves_every_branch_through_the_call_panel(env_of, task):
    env = env_of("hard", 0, PAGE_CHANNEL)
    for seed in BRANCH_SEEDS:
        info, actions = play(env, "oracle", task, seed, PAGE_CHANNEL)
        metrics = info["metrics"]
        assert (metrics["success"], metrics["said_ok"], metrics["verified_first"], metrics["policy_violations"],
                metrics["task_progress"]) == (1, True, True, 0, 1.0), (seed, metrics["state_check"])
        assert not any(action.startswith(("SAY", "TRANSFER", "STOP")) for action in actions), actions
        assert env.observation.call_state in ("ended", "transferred")
