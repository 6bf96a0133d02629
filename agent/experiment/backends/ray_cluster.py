"""The Ray backend: episode workers as Ray actors, one browser each, spread over the cluster's nodes.

The driver (this process) keeps `concurrency` episodes in flight, each on the actor with the
fewest, and writes every outcome as it arrives; an actor plays its episodes on threads of its own
(`max_concurrency`), like the local backend's episode threads. Screenshots and traces are recorded
in the actor's temporary folder and travel back with the trajectory.

Without an address a local Ray instance is started for the run, on this machine's loopback only,
kept small (one CPU per browser, no dashboard, an 80 MB object store, its files in a temporary
folder) and stopped at the end. With `--ray-address` the run joins that cluster; its nodes must
have this project installed and reach the CRM server's URL (give `--server` with an address they
can reach: the embedded server listens on 127.0.0.1 of the driver's machine). In a process that
has already connected to Ray (`ray.init`), the run uses that connection.
"""
from __future__ import annotations

import contextlib
import importlib.util
import logging
import math
import os
import shutil
import socket
import sys
import tempfile
from collections import deque
from pathlib import Path

from ...crm.client import ScenarioClient, ServerError
from ...episode.play import crashed
from .capacity import BackendError, default_browsers
from .episode_worker import EpisodeWorker, Outcome, WorkerConfig

OBJECT_STORE_BYTES = 80 * 1024 * 1024  # Ray's minimum is 75 MB; trajectories are small
# What the actors' policies and browsers read from the environment, as the driver has them (an
# actor on another node does not inherit the driver's environment).
FORWARDED_VARIABLES = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CRM_OPERATOR_TOKEN", "CRM_CHROMIUM")
# Read by Ray when it is imported: the local instance then takes 127.0.0.1 as its node address and
# binds its servers there, instead of the machine's network address.
LOOPBACK_ONLY = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


def available() -> bool:
    return importlib.util.find_spec("ray") is not None


@contextlib.contextmanager
def connected(address: str | None = None, cpus: int | None = None):
    """Ray, connected to the cluster at `address`, else to a local instance with `cpus` CPUs
    (default: this machine's cores) started now and stopped on leaving; an existing connection of
    this process is used as it is."""
    if address:
        _check_reachable(address)
    elif "ray" not in sys.modules:
        os.environ.update(LOOPBACK_ONLY)
    import ray

    if ray.is_initialized():
        yield ray
        return
    folder = None
    if address:
        try:
            ray.init(address=address, logging_level=logging.WARNING)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise BackendError(f"Cannot join the Ray cluster at {address}: {error}") from None
    else:
        folder = tempfile.mkdtemp(prefix="crm-ray-")  # its logs and sockets; removed at the end
        ray.init(num_cpus=cpus or os.cpu_count() or 1, include_dashboard=False,
                 object_store_memory=OBJECT_STORE_BYTES, logging_level=logging.WARNING, _temp_dir=folder,
                 _system_config={"enable_worker_prestart": False, "prestart_worker_first_driver": False})
    try:
        yield ray
    finally:
        ray.shutdown()
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


def _check_reachable(address: str) -> None:
    """BackendError at once when nothing listens at a host:port address (Ray itself would retry for
    minutes); `auto` and ray:// addresses are left to Ray."""
    host, _, port = address.rpartition(":")
    if "://" in address or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as error:
        raise BackendError(f"Cannot join the Ray cluster at {address}: {error}") from None


def play_all(todo: list, driver, config: WorkerConfig, concurrency: int, browsers: int | None,
             address: str | None) -> None:
    concurrency = min(concurrency, len(todo))
    with connected(address, browsers or default_browsers(concurrency)) as ray:
        cpus = int(ray.cluster_resources().get("CPU", 0))
        browsers = min(browsers or default_browsers(concurrency, cpus), concurrency)
        if browsers > cpus:
            raise BackendError(f"The Ray cluster has {cpus} CPU(s); {browsers} browsers need one each "
                              f"(--browsers {cpus} or fewer)")
        pool = _ActorPool(ray, config, browsers, math.ceil(concurrency / browsers))
        try:
            _drive(ray, todo, driver, pool, concurrency, config.records)
        finally:
            pool.close()


def _drive(ray, todo: list, driver, pool: _ActorPool, concurrency: int, records: bool) -> None:
    """Keep `concurrency` episodes in flight and hand each outcome to the driver as it arrives."""
    waiting, in_flight = deque(todo), {}
    while waiting or in_flight:
        while waiting and len(in_flight) < concurrency and not driver.model_error:
            spec = waiting.popleft()
            settings, _ = driver.begin(spec)
            index = pool.least_busy()
            in_flight[pool.play(index, spec, settings, records)] = (spec, settings, index)
        if not in_flight:
            return
        (ready,), _ = ray.wait(list(in_flight), num_returns=1)
        spec, settings, index = in_flight.pop(ready)
        try:
            outcome = pool.result(index, ready)
        except ray.exceptions.RayActorError as error:  # the worker process died: a crashed episode
            outcome = Outcome(crashed(spec, settings, f"The Ray worker playing this episode died: {error}"))
            pool.replace(index)
        driver.finish(spec, outcome)


class _ActorPool:
    """The run's actors and how many episodes each has in flight."""

    def __init__(self, ray, config: WorkerConfig, size: int, episodes_each: int):
        environment = {name: os.environ.get(name) for name in FORWARDED_VARIABLES}
        actor_class = ray.remote(EpisodeActor).options(num_cpus=1, max_concurrency=episodes_each,
                                                       scheduling_strategy="SPREAD")
        self._ray, self._start = ray, lambda: actor_class.remote(config, environment)
        self.actors = [self._start() for _ in range(size)]
        self.busy = [0] * size
        self._check(self.actors)

    def least_busy(self) -> int:
        return min(range(len(self.actors)), key=self.busy.__getitem__)

    def play(self, index: int, spec, settings: dict, records: bool):
        self.busy[index] += 1
        return self.actors[index].play.remote(spec, settings, records)

    def result(self, index: int, reference) -> Outcome:
        self.busy[index] -= 1
        return self._ray.get(reference)

    def replace(self, index: int) -> None:
        self._ray.kill(self.actors[index])
        self.actors[index] = self._start()
        self._check([self.actors[index]])

    def close(self) -> None:
        with contextlib.suppress(Exception):  # a browser that cannot close cleanly is killed below
            self._ray.get([actor.close.remote() for actor in self.actors], timeout=30)
        for actor in self.actors:
            self._ray.kill(actor)

    def _check(self, actors: list) -> None:
        """Every actor has started and reaches the CRM server; ServerError saying which does not."""
        problems = [problem for problem in self._ray.get([actor.problem.remote() for actor in actors]) if problem]
        if problems:
            raise ServerError(problems[0])


class EpisodeActor:
    """A Ray actor: an EpisodeWorker (one browser) with the driver's environment variables."""

    def __init__(self, config: WorkerConfig, environment: dict[str, str | None]):
        for name, value in environment.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        self.worker = EpisodeWorker(config)

    def problem(self) -> str | None:
        """Why this worker cannot play (the CRM server is out of its reach), or None."""
        try:
            ScenarioClient(self.worker.config.server_url).check()
        except ServerError as error:
            return (f"A Ray worker on {socket.gethostname()}: {error}. Give --server with an address "
                    "the cluster's nodes can reach.")
        return None

    def play(self, spec, settings: dict, records: bool) -> Outcome:
        folder = Path(tempfile.mkdtemp(prefix="crm-episode-")) if records else None
        try:
            outcome = self.worker.play(spec, settings, folder)
            if folder is not None and folder.is_dir():
                outcome.files = {path.name: path.read_bytes() for path in sorted(folder.iterdir())}
            return outcome
        finally:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)

    def close(self) -> None:
        self.worker.close()
