"""The UI variants' promise (crm_app/ui_variants): the oracle, reading only the page, solves every task in
every variant; the same episode gets the same /evaluate answer in every variant, because the page
reports each event by its semantic name; and a wrong episode scores 0 in every variant."""
import pytest

from agent.policies import make_policy
from crm_app.ui_variants import VARIANTS
from scenarios.tasks import EXPERT_TASKS, HARD_TASKS, TASK_NAMES

SEEDS = (1, 2)

# A long browser sweep: make test runs it in its second pass, beside the SQLite pass.
pytestmark = pytest.mark.beside


def play(env, policy, task, seed, variant):
    obs, info = env.reset(task=task, seed=seed, ui_variant=str(variant))
    policy.reset(info["scenario"])
    for _ in range(env.max_steps):
        obs, _, terminated, truncated, info = env.step(policy.act(obs)[1])
        if terminated or truncated:
            return scored(info["metrics"])
    pytest.fail("the episode did not end")


def scored(answer: dict) -> dict:
    """An /evaluate answer but the scenario's id (each episode plays a scenario of its own)."""
    return {key: value for key, value in answer.items() if key != "id"}


# Every task of the full and hard suites, and one expert template: the expert suite's pages are the
# hard suite's (its look), and its hundred-odd templates are swept in one variant elsewhere
# (tests/agent/test_expert_protocol.py).
TASKS = (*TASK_NAMES, *HARD_TASKS, "EXPERT_NAME_CHANGE_CANCEL_QUOTE")


def suite_of(task: str) -> str:
    return "hard" if task in HARD_TASKS else "expert" if task in EXPERT_TASKS else "full"


@pytest.mark.parametrize("task", TASKS)
def test_the_oracle_solves_every_task_in_every_variant_with_the_same_answer(env_of, task):
    for seed in SEEDS:
        answers = {variant.number: play(env_of(suite_of(task), variant.number), make_policy("oracle"), task, seed,
                                        variant.number) for variant in VARIANTS}
        for number, answer in answers.items():
            assert (answer["success"], answer["task_progress"]) == (1, 1.0), (seed, number, answer["state_check"])
            assert answer == answers[0], (seed, number)


WRONG = {"title": lambda v: "mr" if v == "dr" else "dr", "gender": lambda v: "male" if v == "other" else "other",
         "firstname": "Wrong{}".format, "lastname": "Wrong{}".format, "email": "wrong.{}".format,
         "dob": lambda v: "1950-05-05"}


class WrongPassengerOracle:
    """The oracle, but it types a wrong value into every passenger field the gold steps fill."""

    needs_gold = True  # it follows the gold steps

    def __init__(self):
        self.oracle = make_policy("oracle")

    def reset(self, scenario):
        self.oracle.reset({**scenario, "gold_actions": [wrong(step) for step in scenario["gold_actions"]]})

    def act(self, observation):
        return self.oracle.act(observation)


def wrong(step: dict) -> dict:
    field = step["target"].rsplit("-", 1)[-1]
    if step["action"] != "fill" or "passenger-" not in step["target"] or field not in WRONG:
        return step
    return {**step, "value": WRONG[field](step["value"])}


def test_a_wrong_episode_scores_0_in_every_variant(env_of):
    answers = {variant.number: play(env_of("full", variant.number), WrongPassengerOracle(), "TASK_BOOK_FLIGHT", 3,
                                    variant.number) for variant in VARIANTS}
    assert all(answer["success"] == 0 and answer["task_progress"] < 1 for answer in answers.values())
    assert all(answer == answers[0] for answer in answers.values())
