"""The local backend: `concurrency` episode threads in this process sharing `browsers` workers
(episode_worker.py), thread i on worker i mod browsers."""
from __future__ import annotations

import queue
import threading

from .capacity import default_browsers
from .episode_worker import EpisodeWorker, WorkerConfig


def play_all(todo: list, driver, config: WorkerConfig, concurrency: int, browsers: int | None) -> None:
    threads = min(concurrency, len(todo))
    workers = [EpisodeWorker(config) for _ in range(min(browsers or default_browsers(threads), threads))]
    work: queue.SimpleQueue = queue.SimpleQueue()
    for spec in todo:
        work.put(spec)
    episodes = [threading.Thread(target=_play_from, args=(work, workers[i % len(workers)], driver), daemon=True)
                for i in range(threads)]
    try:
        for thread in episodes:
            thread.start()
        for thread in episodes:
            thread.join()
    finally:
        for worker in workers:
            worker.close()


def _play_from(work: queue.SimpleQueue, worker: EpisodeWorker, driver) -> None:
    """Play episodes from `work` one after another until it is empty or the model failed."""
    while not driver.model_error:
        try:
            spec = work.get_nowait()
        except queue.Empty:
            return
        settings, assets = driver.begin(spec)
        driver.finish(spec, worker.play(spec, settings, assets))
