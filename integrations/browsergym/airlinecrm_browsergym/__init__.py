"""AirlineCRM's tasks as BrowserGym environments, the papers' six and every task of the hard suite:

    import gymnasium as gym
    import airlinecrm_browsergym  # registers browsergym/airlinecrm.<task>

    env = gym.make("browsergym/airlinecrm.book-flight")
    obs, info = env.reset(seed=3)  # the CRM scenario of seed 3

The CRM is the one at AIRLINECRM_URL, or a server started in this process on a temporary SQLite
file. Seeds are scenario seeds: BrowserGym seed N is the scenario `python -m agent run` plays as
seed N. Rewards come from the CRM's own /evaluate, the scorer of every other agent. In the hard
suite's tasks a customer is on the line: what the agent says in the chat (send_msg_to_user) goes to
the customer, whose reply comes back as the user's next chat message.
"""
from __future__ import annotations

from browsergym.core.registration import register_task

from scenarios.tasks import HARD_TASKS, TASK_NAMES

from .task import AirlineCrmTask, task_class

# TASK_FIND_FLIGHT -> airlinecrm.find-flight, ...
TASK_IDS: dict[str, str] = {}

for _name in (*TASK_NAMES, *HARD_TASKS):
    _task = task_class(_name)
    register_task(_task.get_task_id(), _task, nondeterministic=False)
    TASK_IDS[_task.get_task_id()] = _name

__all__ = ["AirlineCrmTask", "TASK_IDS", "task_class"]
