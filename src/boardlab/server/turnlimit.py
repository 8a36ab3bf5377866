"""How often a player may be told "your turn" outside the table (issue #34): one limit shared by the e-mails
(server/mail.py) and Web Push (server/push.py), so a fast game against bots fills neither an inbox nor a
notification tray, and a player who has both gets them for the same turns.

At most one notice per account and table every `BOARDLAB_MAIL_EVERY` seconds (default 1800) and
`BOARDLAB_MAIL_PER_HOUR` (default 10) per account. The counters live in memory: a restart forgets them (at worst
one more notice).
"""

from __future__ import annotations

import os


class TurnLimit:
    """The per-table and per-hour limits of your-turn notices, counted once per turn for every channel."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        e = os.environ if env is None else env
        self.every = float(e.get("BOARDLAB_MAIL_EVERY", "1800"))
        self.per_hour = int(e.get("BOARDLAB_MAIL_PER_HOUR", "10"))
        self._last: dict[tuple[int, str], float] = {}  # (account, table) -> when the last notice went
        self._hour: dict[int, list[float]] = {}  # account -> when its notices of the last hour went

    def due(self, user_id: int, table_id: str, now: float) -> bool:
        """May this account be told about this table now? Counts it when it may."""
        if now - self._last.get((user_id, table_id), -1e18) < self.every:
            return False
        hour = [x for x in self._hour.get(user_id, []) if now - x < 3600]
        if len(hour) >= self.per_hour:
            self._hour[user_id] = hour
            return False
        self._last[(user_id, table_id)] = now
        self._hour[user_id] = [*hour, now]
        if len(self._last) > 100_000:  # bounded: forget the oldest half
            for k in sorted(self._last, key=self._last.__getitem__)[:50_000]:
                del self._last[k]
        return True
