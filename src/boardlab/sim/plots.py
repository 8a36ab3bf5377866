"""Plots of a simulation: score distribution per entrant and win rate per seat (PNG, matplotlib Agg)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .runner import GameRecord, summarize


def plot(entrants: Sequence[str], records: Sequence[GameRecord], path: str | Path, title: str = "") -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = summarize(entrants, records)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for e, kind in enumerate(entrants):
        scores = [r.scores[r.seating.index(e)] for r in records]
        ax1.hist(scores, bins=20, alpha=0.5, label=f"{e + 1}. {kind}")
    ax1.set_xlabel("final score")
    ax1.set_ylabel("games")
    ax1.legend()
    ax1.set_title("score distribution")
    seats = summary["seats"]
    rates = [s["win_rate"] for s in seats]
    errs = [[r - s["win_rate_ci95"][0] for r, s in zip(rates, seats, strict=True)],
            [s["win_rate_ci95"][1] - r for r, s in zip(rates, seats, strict=True)]]
    ax2.bar([f"seat {s['seat'] + 1}" for s in seats], rates, yerr=errs, capsize=4)
    ax2.axhline(1 / len(entrants), color="grey", linestyle="--", linewidth=1)
    ax2.set_ylabel("win share (95% CI)")
    ax2.set_title("win share by seat")
    fig.suptitle(title or f"{len(records)} games: {' vs '.join(entrants)}")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
