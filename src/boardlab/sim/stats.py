"""Statistics for simulations: the intervals, tests and multiple-comparison adjustments of
`boardlab.core.stats`, where they live since the bots' arena and the simulations share them."""

from boardlab.core.stats import Z95, benjamini_hochberg, diff_ci, diff_p, holm, mean_ci, wilson

__all__ = ["Z95", "benjamini_hochberg", "diff_ci", "diff_p", "holm", "mean_ci", "wilson"]
