"""95 % intervals of the rates the table prints, and what they were computed with.

A rate over independent episodes (one play per scenario) gets a Wilson score interval. When a
scenario was played several times (`--trials` > 1) its plays move together, so the interval is a
percentile bootstrap over scenarios (clustered: a resampled scenario brings all its plays); the
same bootstrap gives progress (a mean, not a count) and pass^k their intervals. The bootstrap draws
from numpy's generator seeded with BOOTSTRAP.seed, so the same episodes always give the same
interval; numpy rather than a loop because a leaderboard computes hundreds of them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class Bootstrap:
    confidence: float = 0.95
    resamples: int = 2000
    seed: int = 0

    def describe(self) -> str:
        return f"percentile bootstrap over scenarios, {self.resamples} resamples, random seed {self.seed}"


BOOTSTRAP = Bootstrap()
WILSON = "Wilson score interval"


def settings() -> dict:
    """What the intervals of a run were computed with, for its run.json."""
    return {"confidence": BOOTSTRAP.confidence, "bootstrap_resamples": BOOTSTRAP.resamples,
            "bootstrap_seed": BOOTSTRAP.seed, "rates": f"{WILSON} (one play per scenario), else {BOOTSTRAP.describe()}"}


def z_value(confidence: float = BOOTSTRAP.confidence) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, n: int, confidence: float = BOOTSTRAP.confidence) -> tuple[float, float]:
    """The Wilson score interval of `successes` out of `n` independent trials; NaNs for none."""
    if n == 0:
        return math.nan, math.nan
    z, p = z_value(confidence), successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def cluster_bootstrap(clusters: Sequence[Sequence[float]], bootstrap: Bootstrap = BOOTSTRAP) -> tuple[float, float]:
    """Percentile interval of the mean of all values when whole clusters (the plays of one scenario)
    are resampled with replacement."""
    if not clusters:
        return math.nan, math.nan
    sums = np.array([math.fsum(c) for c in clusters])
    counts = np.array([len(c) for c in clusters], dtype=float)
    drawn = np.random.default_rng(bootstrap.seed).integers(0, len(clusters), size=(bootstrap.resamples, len(clusters)))
    means = sums[drawn].sum(axis=1) / counts[drawn].sum(axis=1)
    tail = (1 - bootstrap.confidence) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def rate_interval(clusters: Sequence[Sequence[float]]) -> tuple[float, float, str]:
    """(low, high, method) of a 0/1 rate: Wilson when every scenario was played once, else the
    clustered bootstrap."""
    if all(len(c) == 1 for c in clusters):
        return (*wilson(int(sum(c[0] for c in clusters)), len(clusters)), "wilson")
    return (*cluster_bootstrap(clusters), "bootstrap")


def format_interval(low: float, high: float, digits: int = 2) -> str:
    return "" if math.isnan(low) else f"[{low:.{digits}f}, {high:.{digits}f}]"
