"""Means with 95% confidence intervals (Student's t), from the standard library only."""

from __future__ import annotations

import math
from collections.abc import Sequence

# Two-sided 95% quantiles of Student's t by degrees of freedom; between rows, interpolated in 1/df.
_T975 = (
    (1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571), (6, 2.447), (7, 2.365), (8, 2.306),
    (9, 2.262), (10, 2.228), (12, 2.179), (15, 2.131), (20, 2.086), (25, 2.060), (30, 2.042), (40, 2.021),
    (60, 2.000), (120, 1.980),
)  # fmt: skip
Z975 = 1.959964


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with `df` degrees of freedom (1.96 for large df)."""
    if df < 1:
        raise ValueError("a t quantile needs at least 1 degree of freedom")
    prev_df, prev_t = _T975[0]
    for d, t in _T975:
        if df == d:
            return t
        if df < d:
            w = (1 / df - 1 / d) / (1 / prev_df - 1 / d)
            return t + w * (prev_t - t)
        prev_df, prev_t = d, t
    w = (1 / df) / (1 / prev_df)
    return Z975 + w * (prev_t - Z975)


def mean_ci(xs: Sequence[float]) -> tuple[float, float | None]:
    """The mean and the half-width of its 95% interval (None with fewer than two samples)."""
    n = len(xs)
    if n == 0:
        raise ValueError("no samples")
    mean = sum(xs) / n
    if n < 2:
        return mean, None
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, t975(n - 1) * math.sqrt(var / n)
