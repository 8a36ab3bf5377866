"""Mass simulation, statistics and plots for designers and researchers."""

from .runner import GameRecord, play_one, simulate, summarize
from .stats import mean_ci, wilson

__all__ = ["GameRecord", "mean_ci", "play_one", "simulate", "summarize", "wilson"]
