"""95 % intervals of the rates the table prints, and what they were computed with.

A rate over independent episodes (one play per scenario) gets a Wilson score interval. When a
scenario was played several times (`--trials` > 1) its plays move together, so the interval is a
percentile bootstrap over scenarios (clustered: a resampled scenario brings all its plays); the
same bootstrap gives progress (a mean, not a count) and pass^k their intervals. The bootstrap draws
from a generator seeded with BOOTSTRAP.seed, so the same episodes always give the same interval.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Callable, Sequence

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
    return {"confidence": BOOTSTRAP.confidence, "rates": f"{WILSON} (one play per scenario), else "
            f"{BOOTSTRAP.describe()}", **{f"bootstrap_{k}": v for k, v in asdict(BOOTSTRAP).items()
                                           if k != "confidence"}}


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


def cluster_bootstrap(clusters: Sequence[Sequence[float]], statistic: Callable[[np.ndarray, np.ndarray], np.ndarray]
                      | None = None, bootstrap: Bootstrap = BOOTSTRAP) -> tuple[float, float]:
    """Percentile interval of the mean of all values (or of `statistic`) when whole clusters (the
    plays of one scenario) are resampled with replacement. `statistic(sums, counts)` gets, per
    resample, the drawn clusters' value sums and sizes (arrays of resamples x clusters)."""
    if not clusters:
        return math.nan, math.nan
    sums = np.array([math.fsum(c) for c in clusters])
    counts = np.array([len(c) for c in clusters], dtype=float)
    drawn = np.random.default_rng(bootstrap.seed).integers(0, len(clusters), size=(bootstrap.resamples, len(clusters)))
    values = (statistic or _pooled_mean)(sums[drawn], counts[drawn])
    tail = (1 - bootstrap.confidence) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def _pooled_mean(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    return sums.sum(axis=1) / counts.sum(axis=1)


def cluster_mean(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The mean over drawn clusters of each cluster's own value (its sum, when it has one value)."""
    return (sums / counts).mean(axis=1)


def rate_interval(clusters: Sequence[Sequence[float]]) -> tuple[float, float, str]:
    """(low, high, method) of a 0/1 rate: Wilson when every scenario was played once, else the
    clustered bootstrap."""
    if all(len(c) == 1 for c in clusters):
        return (*wilson(int(sum(c[0] for c in clusters)), len(clusters)), "wilson")
    return (*cluster_bootstrap(clusters), "bootstrap")


def mean_interval(clusters: Sequence[Sequence[float]]) -> tuple[float, float]:
    """The clustered bootstrap interval of a mean that is not a count (progress)."""
    return cluster_bootstrap(clusters)


def format_interval(low: float, high: float, digits: int = 2) -> str:
    return "" if math.isnan(low) else f"[{low:.{digits}f}, {high:.{digits}f}]"
