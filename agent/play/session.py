"""One person's session: who plays (and their consent), the tasks still to play in order, and each
task's way through the CRM: its scenario made on the server when the person comes to it, its call
checked ended, scored, and written as a trajectory (record.py). The host's request threads share it."""
from __future__ import annotations

import datetime as dt
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

from ..crm.client import ScenarioClient
from ..episode.spec import EpisodeSpec
from ..episode.trajectory import Trajectory, write_trajectory
from ..experiment.run_record import RunRecord, finish_record, start_record
from ..experiment.runner import RunPlan
from ..results import intervals
from .record import call_ending, task_trajectory

SUITE = "hard"


@dataclass
class Task:
    spec: EpisodeSpec
    scenario: dict | None = None  # the operator's answer, once made
    page: str = ""  # the scenario's CRM page, with where End call goes next
    started: dt.datetime | None = None
    clock: float = 0.0  # time.monotonic() when it started
    trajectory: Trajectory | None = None  # once the call ended and was scored


@dataclass
class Session:
    run: RunPlan
    client: ScenarioClient
    record_start: dict  # what start_record needs besides the person: argv, options, server URL, embedded, ...
    consent: str | None = None  # the text the person must agree to before the first task
    name: str = ""  # as given with --name; the start page asks otherwise
    host: str = ""  # the host's URL, once it serves
    person: dict | None = None
    tasks: list[Task] = field(default_factory=list)
    record: RunRecord | None = None
    finished: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self):
        self.tasks = [Task(spec) for spec in self.run.todo]

    @property
    def started(self) -> bool:
        return self.person is not None

    def begin(self, name: str, agreed: bool) -> str | None:
        """Start the session for `name`; what is missing, in words, when it cannot start."""
        if not name.strip():
            return "Please enter your name or the id you were given."
        if self.consent is not None and not agreed:
            return "The session starts only once you agree to take part."
        with self._lock:
            if self.person is None:
                now = _now().isoformat(timespec="seconds")
                self.person = {"name": name.strip(), "consent": {"agreed": now, "text": self.consent}
                               if self.consent is not None else None}
                self.record = start_record(self.run.out, person=self.person, specs=self.run.specs,
                                           settings=self.run.settings, intervals=intervals.settings(),
                                           **self.record_start)
        return None

    def open_task(self, index: int) -> str:
        """The CRM page of task `index`, its scenario made on the server the first time."""
        task = self.tasks[index]
        with self._lock:
            if task.scenario is None:
                spec = task.spec
                task.scenario, _ = self.client.generate(spec.task, spec.seed, SUITE, spec.ui_variant or None,
                                                          spec.customer_variant or None)
                done = urllib.parse.quote(f"{self.host}/task/{index}/done", safe="")
                task.page = f"{task.scenario['url']}&next={done}"
                task.started, task.clock = _now(), time.monotonic()
        return task.page

    def finish_task(self, index: int) -> bool:
        """Score task `index` and write its trajectory once its call has ended; False while it is open."""
        task = self.tasks[index]
        with self._lock:
            if task.trajectory is not None:
                return True
            if task.scenario is None:
                return False
            seconds = time.monotonic() - task.clock
            activity = self.client.activity(task.scenario["id"])  # the call's end is among its lines
            if call_ending(activity) is None:
                return False
            task.trajectory = task_trajectory(
                task.spec, self.run.settings[task.spec.label], task.scenario, self.client.evaluate(task.scenario["id"]),
                activity, task.started, seconds, self.person)
            write_trajectory(task.spec.path(self.run.out), task.trajectory)
            if all(t.trajectory is not None for t in self.tasks):
                finish_record(self.run.out, self.record, "finished")
        return True

    def next_task(self) -> int | None:
        """The first task not yet played; None when all are."""
        return next((i for i, task in enumerate(self.tasks) if task.trajectory is None), None)

    def stop(self, why: str) -> None:
        """Record that the session stopped before every task was played."""
        if self.record is not None and self.next_task() is not None:
            finish_record(self.run.out, self.record, f"stopped: {why}")


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)

