"""Statistics for simulations and bot matches: win rates with Wilson intervals, means with normal intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default); ties may count as half successes."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval (mean, low, high)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return (m, m, m)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (m, m - half, m + half)


def diff_ci(s1: float, n1: int, s2: float, n2: int, z: float = Z95) -> tuple[float, float]:
    """Interval for the difference of two proportions s1/n1 - s2/n2: Newcombe's hybrid score interval
    (method 10 of Newcombe 1998), built from the two Wilson intervals. Why not the plain normal one: a
    component played in few games has a share near 0 or 1, where the normal interval is too narrow."""
    if n1 <= 0 or n2 <= 0:
        return (-1.0, 1.0)
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1, z)
    l2, u2 = wilson(s2, n2, z)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def diff_p(s1: float, n1: int, s2: float, n2: int) -> float:
    """Two-sided p-value of "the two proportions are equal" (pooled two-proportion z test)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (s1 + s2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    return math.erfc(abs(s1 / n1 - s2 / n2) / se / math.sqrt(2))


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error): with m comparisons, about 5% of the true
    nulls still read "p < 0.05" one by one; the adjusted values do not."""
    m = len(p)
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: p[i])):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def benjamini_hochberg(p: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values: the false discovery rate at which each would be kept)."""
    m = len(p)
    out = [0.0] * m
    running = 1.0
    for rank, i in reversed(list(enumerate(sorted(range(m), key=lambda i: p[i]), start=1))):
        running = min(running, p[i] * m / rank)
        out[i] = running
    return out
