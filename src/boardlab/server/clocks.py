"""Clocks per BGA: real-time speeds (a bank, time added per move, capped) and turn-based speeds
(hours or days per move). Pure arithmetic here; the site module runs the timers and stores them.

A seat's clock runs while it is that seat's turn. When a turn begins, `per_move` is added to the
seat's bank (never above `cap`); when the turn ends, the time it took is taken off. A bank below
zero is "out of time": the server lets a bot make that move (zombie move) and the other players may
expel the player (their seat goes to a bot for the rest of the game and they lose a rated game).
"""

from __future__ import annotations

from typing import Any

SPEEDS: dict[str, dict[str, Any]] = {
    # real time: minutes of bank, seconds per move
    "fast": {"mode": "realtime", "bank": 120.0, "per_move": 10.0, "cap": 180.0},
    "normal": {"mode": "realtime", "bank": 300.0, "per_move": 20.0, "cap": 480.0},
    "slow": {"mode": "realtime", "bank": 600.0, "per_move": 40.0, "cap": 900.0},
    # turn based: the bank is one move's time, refilled every turn
    "12h": {"mode": "turn", "bank": 12 * 3600.0, "per_move": 12 * 3600.0, "cap": 12 * 3600.0},
    "1d": {"mode": "turn", "bank": 86400.0, "per_move": 86400.0, "cap": 86400.0},
    "3d": {"mode": "turn", "bank": 3 * 86400.0, "per_move": 3 * 86400.0, "cap": 3 * 86400.0},
}
MIN_SECONDS = 2.0  # custom clocks (the API, tests) may be this short


def settings(spec: Any) -> dict[str, Any] | None:
    """A clock from a speed name or {mode, per_move, bank?, cap?} (seconds); None = no clock."""
    if spec in (None, "", "none"):
        return None
    if isinstance(spec, str):
        if spec not in SPEEDS:
            raise ValueError(f"unknown speed {spec!r}; known: {', '.join(SPEEDS)}")
        return dict(SPEEDS[spec], speed=spec)
    if not isinstance(spec, dict):
        raise ValueError("a clock is a speed name or {mode, per_move, bank, cap}")
    mode = spec.get("mode")
    if mode not in ("realtime", "turn"):
        raise ValueError("clock mode is realtime or turn")
    try:
        per = float(spec.get("per_move", 0))
        bank = float(spec.get("bank", per))
        cap = float(spec.get("cap", max(bank, per)))
    except (TypeError, ValueError):
        raise ValueError("clock times are numbers of seconds") from None
    limit = 30 * 86400.0
    if not (MIN_SECONDS <= bank <= limit and 0 <= per <= limit and bank <= cap <= limit and per <= cap):
        raise ValueError(f"clock times: {MIN_SECONDS:g} s <= bank <= cap <= 30 days, per move <= cap")
    return {"mode": mode, "bank": bank, "per_move": per, "cap": cap, "speed": "custom"}


def new_state(clock: dict[str, Any], players: int) -> dict[str, Any]:
    """Every seat starts with its bank; nobody's clock runs until `start_turn`."""
    return {"remaining": [clock["bank"]] * players, "seat": None, "since": None, "out": []}


def start_turn(clock: dict[str, Any], st: dict[str, Any], seat: int | None, now: float, first: bool) -> None:
    """Stop the running clock (charging the time taken) and start `seat`'s."""
    run = st.get("seat")
    if run is not None and st.get("since") is not None:
        st["remaining"][run] -= max(0.0, now - st["since"])
    if seat is not None and (run != seat or first):
        rem = st["remaining"][seat]
        if clock["mode"] == "turn":
            rem = clock["per_move"]  # turn-based: every turn has its full time
        elif not first:
            rem += clock["per_move"]
        st["remaining"][seat] = min(rem, clock["cap"])
    st["seat"] = seat
    st["since"] = now if seat is not None else None


def deadline(st: dict[str, Any]) -> float | None:
    """Wall time at which the running seat runs out, or None."""
    if st.get("seat") is None or st.get("since") is None:
        return None
    return float(st["since"]) + float(st["remaining"][st["seat"]])
