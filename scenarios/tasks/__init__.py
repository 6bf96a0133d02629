"""The task types, one small module each, and lookup by canonical name or alias: the papers' six
(`TASKS`), the hard suite's (`hard/`, a customer on the line and a policy to follow) and the expert
suite's templates (scenarios/expert/: calls of several requests composed from request kinds)."""
from __future__ import annotations

from crm_app.services.errors import InvalidInput

from . import book_flight, cancel_booking, find_booking, find_flight, modify_flight, update_passenger
from .base import Task
from .expert import EXPERT
from .hard import HARD

TASKS: dict[str, Task] = {
    module.TASK.name: module.TASK
    for module in (find_flight, book_flight, find_booking, cancel_booking, update_passenger, modify_flight)
}
TASK_NAMES = tuple(TASKS)  # canonical names, in the papers' order
HARD_TASKS = tuple(task.name for task in HARD)
EXPERT_TASKS = tuple(task.name for task in EXPERT)
ALL_TASKS: dict[str, Task] = {**TASKS, **{task.name: task for task in (*HARD, *EXPERT)}}
ALIASES: dict[str, Task] = {alias: task for task in ALL_TASKS.values() for alias in task.aliases}


def task_named(name) -> Task:
    """The task with this canonical name or alias (any case); InvalidInput names the choices."""
    key = name.strip().upper() if isinstance(name, str) else ""
    task = ALL_TASKS.get(key) or ALIASES.get(key)
    if task is None:
        raise InvalidInput(f"Unknown task: {str(name)[:60]}. Choose one of {', '.join(ALL_TASKS)}")
    return task
