"""Spreading kept-alive connections evenly over gunicorn's worker processes.

Workers share one listening socket and whichever wakes first accepts; a kept-alive connection then
stays with that worker. A burst of new clients can so land mostly on one worker, whose clients
then wait several times longer than the others' while the other worker idles. Here every worker
publishes how many connections it holds, in memory shared with the master and the other workers,
and takes a new one only while it holds at most BALANCE_SLACK more than the worker holding fewest;
that worker always may, so a connection is always taken by someone.
"""
from __future__ import annotations

from multiprocessing.sharedctypes import RawArray

BALANCE_SLACK = 1


class ConnectionShares:
    """One counter per worker slot. The master hands a slot to each worker it forks (`assign`,
    gunicorn's pre_fork hook) and takes it back when the worker exits (`release`, child_exit);
    a worker that found no slot (more workers than slots) takes connections freely."""

    def __init__(self, workers: int):
        self.counts = RawArray("i", workers)
        self.free = list(range(workers))  # read and changed in the master only

    def assign(self, _arbiter, worker) -> None:
        worker.share_slot = self.free.pop(0) if self.free else None
        if worker.share_slot is not None:
            self.counts[worker.share_slot] = 0

    def release(self, _arbiter, worker) -> None:
        slot = worker.share_slot
        if slot is not None:
            self.counts[slot] = 0
            self.free = sorted({*self.free, slot})

    def may_accept(self, slot: int | None, held: int) -> bool:
        """Publish that the worker in `slot` holds `held` connections; whether it may take another."""
        if slot is None:
            return True
        self.counts[slot] = held
        return held <= min(self.counts) + BALANCE_SLACK
