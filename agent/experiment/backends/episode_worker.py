"""A worker: one browser and the episodes in flight on it, each with its own browser context.

Any number of threads may call `play` at once. Each episode takes a seat: an environment of the
kind its method works in (agent/env/kinds.py: a browser context on the worker's browser, or the
JSON API, which needs no browser) and the policies by label, which later episodes of the worker
reuse, as one worker thread reused them before. What an episode produced comes back as an
`Outcome`; writing it is the driver's job (agent/experiment/runner.py), whichever backend ran
the worker.
"""
from __future__ import annotations

import threading
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from ...env.browser_host import BrowserHost, HostedEnv
from ...env.kinds import make_env
from ...env.recording import records_anything
from ...episode.play import crashed, play_episode
from ...episode.spec import EpisodeSpec
from ...episode.trajectory import Trajectory
from ...policies import environment_of, make_policy
from ...policies.llm import LLMError


@dataclass(frozen=True)
class WorkerConfig:
    """What every worker of a run needs (it travels to Ray workers, so plain data only)."""
    server_url: str
    policy_options: dict
    operator_token: str | None = None
    recording: dict = field(default_factory=dict)  # {"screenshots": bool, "trace": None|"failed"|"all"}
    env_options: dict = field(default_factory=dict)  # the protocol's (agent/env/kinds.py)

    @property
    def records(self) -> bool:
        return records_anything(self.recording)


@dataclass
class Outcome:
    """An episode's trajectory; the model's error when the model could not be used (the run stops);
    its screenshots and trace by file name, when they travel back to the driver (Ray)."""
    trajectory: Trajectory
    model_error: str | None = None
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass
class _Seat:
    env: HostedEnv  # or an ApiEnv, for a method that works the API
    kind: str  # agent/env/kinds.py: "browser" or "api"
    policies: dict = field(default_factory=dict)

    def policy(self, spec: EpisodeSpec, options: dict):
        if spec.label not in self.policies:
            self.policies[spec.label] = make_policy(spec.method, shots=spec.shots, observations=spec.observations,
                                                    **options)
        return self.policies[spec.label]


class EpisodeWorker:
    def __init__(self, config: WorkerConfig):
        self.config = config
        self.host = BrowserHost()
        self._free: dict[str, list[_Seat]] = {}  # by kind of environment
        self._lock = threading.Lock()

    def play(self, spec: EpisodeSpec, settings: dict, assets: Path | None = None) -> Outcome:
        """Play one episode; `assets` is the folder for its screenshots and trace, if recorded.
        A broken episode comes back as an incomplete trajectory saying why, never as an exception."""
        try:
            seat = self._take_seat(environment_of(spec.method))
        except Exception:  # the browser cannot be started: every episode of this worker says so
            return Outcome(crashed(spec, settings, traceback.format_exc()))
        seat.env.observations = spec.observations
        if seat.env.recorder:
            seat.env.recorder.folder = assets
        try:
            trajectory = play_episode(seat.env, seat.policy(spec, self.config.policy_options), spec, settings)
        except LLMError as error:
            self._give_back(seat)
            return Outcome(crashed(spec, settings, str(error)), model_error=str(error))
        except Exception:  # one broken episode must not stop the run; it is retried on resume
            self._discard(seat)
            return Outcome(crashed(spec, settings, traceback.format_exc()))
        self._give_back(seat)
        return Outcome(trajectory)

    def close(self) -> None:
        with self._lock:
            seats, self._free = [seat for free in self._free.values() for seat in free], {}
        for seat in seats:
            self._discard(seat)
        self.host.close()

    def _take_seat(self, kind: str) -> _Seat:
        with self._lock:
            free = self._free.setdefault(kind, [])
            while free:
                seat = free.pop()
                if kind != "browser" or seat.env.generation == self.host.generation:  # not of a dead browser
                    return seat
        def make(browser=None):
            return make_env(kind, self.config.server_url, self.config.operator_token, self.config.env_options,
                            self.config.recording, browser)

        return _Seat(self.host.environment(make) if kind == "browser" else make(), kind)

    def _give_back(self, seat: _Seat) -> None:
        with self._lock:
            self._free.setdefault(seat.kind, []).append(seat)

    def _discard(self, seat: _Seat) -> None:
        try:
            seat.env.close()
        except Exception:  # the browser died with the episode: nothing left to close
            pass
