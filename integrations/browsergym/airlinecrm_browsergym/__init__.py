"""AirlineCRM's tasks as BrowserGym environments, the papers' six, every task of the hard suite and
every template of the expert suite (`airlinecrm.expert-change-cancel`, ...; TASK_SPLITS gives each
its split, train or test, and agentlab.airlinecrm_benchmark(split=...) takes one):

    import gymnasium as gym
    import airlinecrm_browsergym  # registers browsergym/airlinecrm.<task>

    env = gym.make("browsergym/airlinecrm.book-flight")
    obs, info = env.reset(seed=3)  # the CRM scenario of seed 3

The CRM is the one at AIRLINECRM_URL, or a server started in this process on a temporary SQLite
file. Seeds are scenario seeds: BrowserGym seed N is the scenario `python -m agent run` plays as
seed N. Rewards come from the CRM's own /evaluate, the scorer of every other agent. In the hard
and expert suites' tasks a customer is on the line: what the agent says in the chat (send_msg_to_user)
goes to the customer, whose reply comes back as the user's next chat message.
"""
from __future__ import annotations

from browsergym.core.registration import register_task

from scenarios.suites import SUITES, split_of
from scenarios.tasks import EXPERT_TASKS, HARD_TASKS, TASK_NAMES

from .task import AirlineCrmTask, task_class

# TASK_FIND_FLIGHT -> airlinecrm.find-flight, ...
TASK_IDS: dict[str, str] = {}
TASK_SPLITS: dict[str, str] = {}  # an expert template's id -> its split (train or test)

for _name in (*TASK_NAMES, *HARD_TASKS, *EXPERT_TASKS):
    _task = task_class(_name)
    register_task(_task.get_task_id(), _task, nondeterministic=False)
    TASK_IDS[_task.get_task_id()] = _name
    if _task.suite == "expert":
        TASK_SPLITS[_task.get_task_id()] = split_of(SUITES["expert"], _name)

__all__ = ["AirlineCrmTask", "TASK_IDS", "TASK_SPLITS", "task_class"]
