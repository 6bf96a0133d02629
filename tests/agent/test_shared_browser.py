"""Many episodes in flight on one browser (agent/experiment/backends/): each in a browser context of its own,
their page work on the browser's thread, their model time overlapping."""
import datetime as dt
import os
import signal
from collections import Counter

import pytest

from agent.__main__ import main
from agent.env.browser_host import BrowserHost
from agent.experiment.backends import episode_worker
from agent.experiment.backends.episode_worker import EpisodeWorker, WorkerConfig
from agent.experiment.runner import episode_spec
from agent.experiment.settings import result_settings
from scenarios.tasks import TASK_NAMES
from tests.agent import scripted_model as model
from tests.agent.played import played, trajectories
from tests.fake_openai import FakeOpenAIServer
from tests.process_tree import Watch, chromium_browsers

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def own_browsers(monkeypatch):
    """These tests count the browsers runs start: each run starts its own, as outside the tests
    (not the shared ones of tests/browser_hosts.py)."""
    monkeypatch.setattr(episode_worker, "BrowserHost", BrowserHost)


class BrowserWatch(Watch):
    """The Chromium browser processes this process started while the watch was on (sampled every
    50 ms): those found in three samples or more, since a process caught between fork and exec, or
    while its parent exits, can look like a browser for an instant."""

    def __init__(self):
        self.before = chromium_browsers()
        self.samples: Counter = Counter()
        super().__init__(lambda: self.samples.update(chromium_browsers() - self.before), 0.05)

    @property
    def seen(self) -> set[int]:
        return {pid for pid, samples in self.samples.items() if samples >= 3}


def test_episodes_of_two_labels_interleaved_on_one_browser_play_as_one_at_a_time(tmp_path, live_server,
                                                                                 serial_oracle_run):
    with BrowserWatch() as watch:
        assert main(["run", "--method", "oracle,oracle-coordinates", "--tasks", "all", "--episodes", "1", "--quiet",
                     "--concurrency", "4", "--browsers", "1", "--server", live_server, "--out", str(tmp_path)]) == 0
    assert len(watch.seen) == 1  # one Chromium process tree served all twelve episodes
    shared, alone = trajectories(tmp_path, "oracle"), trajectories(serial_oracle_run[0], "oracle")
    coordinates = trajectories(tmp_path, "oracle-coordinates")
    assert set(shared) == set(alone) == set(coordinates) == {(task, 0) for task in TASK_NAMES}
    for key, trajectory in shared.items():
        assert played(trajectory) == played(alone[key]), key
        assert trajectory["metrics"]["success"] == coordinates[key]["metrics"]["success"] == 1, key
        assert coordinates[key]["metrics"]["num_actions"] == trajectory["metrics"]["num_actions"], key
        assert all("browser_wait_ms" in step["timings"] for step in trajectory["steps"])


def test_a_slow_model_thinks_for_several_episodes_at_once(tmp_path, live_server):
    """Four episodes on one browser, their model answering after 0.3 s."""
    with FakeOpenAIServer(model.flat_search_flight, delay_seconds=0.3) as slow:
        assert main(["run", "--method", "flat", "--tasks", "TASK_FIND_FLIGHT", "--episodes", "4", "--quiet",
                     "--concurrency", "4", "--browsers", "1", "--model", "fake-model", "--base-url", slow.base_url,
                     "--server", live_server, "--out", str(tmp_path)]) == 0
    episodes = list(trajectories(tmp_path, "flat-zero-shot").values())
    assert len(episodes) == 4 and all(t["metrics"]["success"] == 1 for t in episodes)
    starts = [dt.datetime.fromisoformat(t["started"]).timestamp() for t in episodes]
    ends = [start + t["seconds"] for start, t in zip(starts, episodes)]
    model_seconds = [sum(step["timings"]["policy_ms"] for step in t["steps"]) / 1000 for t in episodes]
    assert all(seconds >= 5 * 0.3 for seconds in model_seconds)  # five model calls or more, each 0.3 s
    # From the first start to the last end, less than half the time the four episodes took one
    # after another went by; the model had three or more of their requests in hand at once.
    assert max(ends) - min(starts) < 0.5 * sum(t["seconds"] for t in episodes)
    assert slow.most_in_flight >= 3


def test_a_browser_that_died_is_started_again(live_server):
    worker = EpisodeWorker(WorkerConfig(live_server, {}, os.environ["CRM_OPERATOR_TOKEN"]))
    spec = episode_spec("oracle", "TASK_FIND_BOOKING", 0)
    settings = result_settings("oracle", {"max_steps": 60})
    before = chromium_browsers()
    try:
        assert worker.play(spec, settings).trajectory.succeeded
        (first,) = chromium_browsers() - before
        os.kill(first, signal.SIGKILL)
        broken = worker.play(spec, settings)  # the seat's context was in the dead browser
        assert not broken.trajectory.complete and "closed" in broken.trajectory.crash
        again = worker.play(spec, settings)
        assert again.trajectory.succeeded and worker.host.generation == 2
        assert len(chromium_browsers() - before - {first}) == 1
    finally:
        worker.close()
