"""Statistics for simulations: the intervals of `boardlab.core.stats`, where they live since the bots' arena and
ladder use them too (the bots sit below `boardlab.sim` and may not import it)."""

from boardlab.core.stats import Z95, mean_ci, wilson

__all__ = ["Z95", "mean_ci", "wilson"]
