"""The oracle solves every branch of the hard suite's tasks through the browser: it says the gold
lines to the customer with SAY and walks the CRM's pages by their labels; the verdict counts the
final state, what it told the customer, and that it verified the caller before any write."""
import pytest

from agent.policies import make_policy
from scenarios.tasks import HARD_TASKS

BRANCH_SEEDS = range(5)  # a seed draws branch seed % 5: these meet every branch


def play_oracle(env, task, seed):
    obs, info = env.reset(task=task, seed=seed)
    oracle = make_policy("oracle")
    oracle.reset(info["scenario"])
    for _ in range(env.max_steps):
        obs, _, terminated, truncated, info = env.step(oracle.act(obs)[1])
        assert info["error"] is None, info["error"]
        if terminated or truncated:
            return obs, info
    pytest.fail("the episode did not end")


@pytest.mark.parametrize("task", HARD_TASKS)
def test_the_oracle_solves_every_branch_through_the_browser(env_of, task):
    for seed in BRANCH_SEEDS:
        _, info = play_oracle(env_of("hard", 0), task, seed)
        metrics = info["metrics"]
        assert (metrics["success"], metrics["said_ok"], metrics["verified_first"], metrics["policy_violations"],
                metrics["task_progress"]) == (1, True, True, 0, 1.0), (seed, metrics["state_check"])
