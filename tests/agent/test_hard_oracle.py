"""The oracle solves every branch of the hard suite's judgment tasks in a UI variant other than 0: it
says the gold lines to the customer with SAY and walks the CRM's pages by the variant's labels; the
verdict counts the final state, what it told the customer, and that it verified the caller before
any write. Every branch of every task in variant 0, through SAY and through the page's call panel,
is played by test_page_channel.py."""
import pytest

from agent.policies import make_policy
from crm_app.ui_variants import VARIANTS
from tests.agent.branches import branch_seeds

# The tasks that test judgment (issue 35) are also played on every branch in another UI variant
# than 0 (test_oracle_in_every_variant.py plays two seeds of every task in every variant).
JUDGMENT_TASKS = ("TASK_PUSHBACK", "TASK_FALSE_CLAIM", "TASK_ESCALATION", "TASK_DISRUPTED_FLIGHT",
                  "TASK_UPGRADE_TO_CHANGE")
OTHER_VARIANT = VARIANTS[-1].number


def play_oracle(env, task, seed, variant=None):
    obs, info = env.reset(task=task, seed=seed, ui_variant=None if variant is None else str(variant))
    oracle = make_policy("oracle")
    oracle.reset(info["scenario"])
    for _ in range(env.max_steps):
        obs, _, terminated, truncated, info = env.step(oracle.act(obs)[1])
        assert info["error"] is None, info["error"]
        if terminated or truncated:
            return obs, info
    pytest.fail("the episode did not end")


@pytest.mark.parametrize("task", JUDGMENT_TASKS)
def test_the_oracle_solves_every_branch_of_the_judgment_tasks_in_another_ui_variant(env_of, live_server, task):
    env = env_of("hard", OTHER_VARIANT)
    for seed in branch_seeds(live_server, task):
        _, info = play_oracle(env, task, seed, OTHER_VARIANT)
        metrics = info["metrics"]
        assert env.scenario["ui_variant"] == OTHER_VARIANT
        assert (metrics["success"], metrics["said_ok"], metrics["policy_violations"], metrics["task_progress"]) == (
            1, True, 0, 1.0), (seed, metrics["state_check"])
