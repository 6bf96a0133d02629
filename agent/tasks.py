"""The six CRM task types, in the papers' order (canonical names): the scenario backend's table."""
from scenarios.tasks import TASKS

ALL_TASKS = tuple(TASKS)
