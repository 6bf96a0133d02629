"""Per-step scores without a request per step (agent/env/progress.py, scenarios/timeline.py): a
trajectory played with its scores read from the server's timeline at the end has the scores a
trajectory asking /evaluate after every step has, on every task, on calls with a customer through
SAY and through the page's Call panel, and on an episode whose later steps undo its success; the
steps in between make no request to the server."""
import pytest

from agent.env.browser_env import CrmEnv
from agent.episode.play import play_episode
from agent.episode.policy import Policy
from agent.episode.spec import EpisodeSpec
from agent.experiment.protocols import PROTOCOLS
from agent.policies import make_policy
from scenarios.tasks import TASK_NAMES
from tests.agent.counted import CountedEvaluations
from tests.conftest import OPERATOR_TOKEN


def scores_by_step(trajectory) -> list[dict]:
    return [step["metrics"] for step in trajectory.steps]


def final(trajectory) -> dict:
    return {key: value for key, value in trajectory.metrics.items() if key != "id"}


@pytest.mark.parametrize("task", TASK_NAMES)
def test_scores_from_the_timeline_are_the_scores_asked_after_each_step(live_server, browser, task):
    spec = EpisodeSpec("oracle", task, seed=11)
    played = {}
    for every_step in (False, True):
        with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, suite="full",
                    metrics_every_step=every_step) as env:
            played[every_step] = play_episode(env, make_policy("oracle"), spec)
    assert scores_by_step(played[False]) == scores_by_step(played[True])
    assert final(played[False]) == final(played[True]) and played[False].metrics["success"] == 1
    assert [step["metrics"]["task_progress"] for step in played[False].steps][-1] == 1.0


CALLS = [("hard", "TASK_POLICY_CHANGE", "say"), ("hard", "TASK_ESCALATION", "page"),
         ("expert", "EXPERT_CHANGE_CANCEL_SUPERVISOR_MIXED", "say"), ("expert", "EXPERT_NAME_CHANGE_CANCEL_QUOTE", "page")]


@pytest.mark.parametrize("suite, task, channel", CALLS)
def test_a_calls_scores_from_the_timeline_are_the_scores_asked_after_each_step(live_server, browser, suite, task,
                                                                               channel):
    spec = EpisodeSpec("oracle", task, seed=11)
    played, asked = {}, {}
    for every_step in (False, True):
        with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, metrics_every_step=every_step,
                    **PROTOCOLS[suite].env_options(channel)) as env:
            env.client = CountedEvaluations(env.client)
            policy = make_policy("oracle", protocol=suite, on_call=True, channel=channel)
            played[every_step], asked[every_step] = play_episode(env, policy, spec), env.client.calls
    assert asked == {False: 1, True: len(played[True].steps)}  # the timeline: one request at the end
    assert scores_by_step(played[False]) == scores_by_step(played[True])
    assert final(played[False]) == final(played[True]) and played[False].metrics["success"] == 1
    if suite == "expert":  # the report marks the step where each request was handled
        handled = [step["metrics"]["requests_ok"] for step in played[False].steps]
        assert not all(handled[0]) and all(handled[-1])


def test_a_calls_steps_before_the_last_make_no_request(live_server, browser):
    with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN,
                **PROTOCOLS["hard"].env_options("say")) as env:
        obs, info = env.reset(task="TASK_POLICY_CANCEL", seed=13)
        oracle = make_policy("oracle", protocol="hard", on_call=True, channel="say")
        oracle.reset(info["scenario"])
        env.client = env.progress.client = CountedEvaluations(env.client)
        said = 0
        while True:
            text = oracle.act(obs)[1]
            said += text.startswith("SAY")
            obs, reward, terminated, truncated, step = env.step(text)
            if terminated or truncated:
                break
            assert step["metrics"] is None and env.client.calls == 0
        assert said > 1 and env.client.calls == 1 and reward == 1.0
        assert len(step["step_metrics"]) == env.steps and step["step_metrics"][-1]["success"] == 1


class TwiceOracle(Policy):
    """Books the scenario's flight, goes Home and books it again: success, then a second booking
    that spoils it (two writes, so the state of each step is the one its own write left)."""

    needs_gold = True  # it follows the oracle's gold steps

    def __init__(self):
        self.oracle, self.round, self.scenario = make_policy("oracle"), 1, None

    def reset(self, scenario):
        self.scenario = scenario
        self.oracle.reset(scenario)

    def act(self, observation):
        reason, action = self.oracle.act(observation)
        if action.startswith("STOP") and self.round == 1:
            self.round = 2
            self.oracle = make_policy("oracle")
            self.oracle.reset(self.scenario)
            return "book it again", "CLICK Home"
        return reason, action


def test_a_second_write_that_spoils_success_is_scored_at_its_own_step(live_server, browser):
    spec = EpisodeSpec("twice", "TASK_BOOK_FLIGHT", seed=12)
    played = {}
    for every_step in (False, True):
        with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, suite="full",
                    metrics_every_step=every_step) as env:
            played[every_step] = play_episode(env, TwiceOracle(), spec)
    by_step = scores_by_step(played[False])
    assert by_step == scores_by_step(played[True])
    successes = [scores["success"] for scores in by_step]
    assert 1 in successes and successes[-1] == 0  # booked once (success), then twice
    assert final(played[False]) == final(played[True])


def test_steps_before_the_last_make_no_request(live_server, browser):
    with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, suite="full") as env:
        obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=13)
        oracle = make_policy("oracle")
        oracle.reset(info["scenario"])
        env.client = env.progress.client = CountedEvaluations(env.client)
        while True:
            obs, reward, terminated, truncated, step = env.step(oracle.act(obs)[1])
            if terminated or truncated:
                break
            assert step["metrics"] is None and env.client.calls == 0
        assert env.client.calls == 1 and reward == 1.0
        assert len(step["step_metrics"]) == env.steps and step["step_metrics"][-1]["success"] == 1


def test_scores_are_asked_after_every_step_when_a_success_ends_the_episode(live_server, browser):
    with CrmEnv(live_server, browser=browser, operator_token=OPERATOR_TOKEN, suite="full",
                stop_on_success=True) as env:
        obs, info = env.reset(task="TASK_FIND_FLIGHT", seed=13)
        oracle = make_policy("oracle")
        oracle.reset(info["scenario"])
        obs, _, _, _, step = env.step(oracle.act(obs)[1])
        assert step["metrics"]["success"] == 0
