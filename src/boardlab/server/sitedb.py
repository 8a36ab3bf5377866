"""Schema of the site around the games: accounts, sessions, ratings, results, clocks, chat, friends, blocks,
reports.

Kept apart from the tables' own schema (db.py) so the play path (log rows) is unchanged; the same
`metadata`, so the Alembic migrations and `tests/server/test_misc.py` see one schema.
"""

from __future__ import annotations

import sqlalchemy as sa

from .dbmeta import metadata

users_t = sa.Table(
    "bl_users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("name_key", sa.String(40), nullable=False, unique=True),  # NFKC + casefold: no look-alikes
    sa.Column("pw_hash", sa.String(200), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    # your-turn e-mails (server/mail.py, migration 0008): the address, opted in or not, in which language
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("mail_turns", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("mail_lang", sa.String(8), nullable=True),
)

sessions_t = sa.Table(
    "bl_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("bl_users.id"), nullable=False),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

seat_users_t = sa.Table(
    "bl_seat_users",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("bl_users.id"), nullable=False),
    sa.Index("ix_bl_seat_users_user", "user_id"),
)

table_site_t = sa.Table(
    "bl_table_site",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), primary_key=True),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("bot_level", sa.String(16), nullable=False),
    sa.Column("bot_pace", sa.Float, nullable=False),
    sa.Column("clock", sa.Text, nullable=True),  # JSON: {mode, bank, per_move, cap}
    sa.Column("clock_state", sa.Text, nullable=True),  # JSON: {remaining: [...], since, seat, out: [...]}
    sa.Column("leavers", sa.Text, nullable=False),  # JSON list of seats ranked last (left or expelled)
    # JSON {stood_in: seats a stand-in bot moved for, moved: seats whose player moved themselves} (0005)
    sa.Column("seat_play", sa.Text, nullable=True),
    sa.Column("rated_done", sa.Boolean, nullable=False),
)

ratings_t = sa.Table(
    "bl_ratings",
    metadata,
    sa.Column("player", sa.String(40), primary_key=True),  # "u:<user id>" or "bot:<level>"
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

results_t = sa.Table(
    "bl_results",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player", sa.String(40), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("score", sa.Float, nullable=True),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("before", sa.Float, nullable=True),
    sa.Column("after", sa.Float, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_bl_results_player", "player"),
)

chat_t = sa.Table(
    "bl_chat",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.String(400), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    # "players" or "spectators" (0006): spectators talk in their own channel (social.py)
    sa.Column("channel", sa.String(12), nullable=False, server_default="players"),
    sa.Column("user_id", sa.Integer, nullable=True),  # the author's account, if any: blocks and reports (0006)
)

friends_t = sa.Table(
    "bl_friends",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("bl_users.id"), primary_key=True),
    sa.Column("friend_id", sa.Integer, sa.ForeignKey("bl_users.id"), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

blocks_t = sa.Table(
    "bl_blocks",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("bl_users.id"), primary_key=True),
    sa.Column("blocked_id", sa.Integer, sa.ForeignKey("bl_users.id"), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

reports_t = sa.Table(
    "bl_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter_id", sa.Integer, sa.ForeignKey("bl_users.id"), nullable=False),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), nullable=False),
    sa.Column("n", sa.Integer, nullable=False),  # the chat line (bl_chat.n)
    sa.Column("channel", sa.String(12), nullable=False),
    sa.Column("author_name", sa.String(64), nullable=False),
    sa.Column("author_id", sa.Integer, nullable=True),
    sa.Column("text", sa.String(400), nullable=False),  # the line as it was when reported
    sa.Column("created_at", sa.Float, nullable=False),
    sa.UniqueConstraint("reporter_id", "table_id", "n", name="uq_bl_reports_line"),
    sa.Index("ix_bl_reports_reporter", "reporter_id", "created_at"),
)

site_secret_t = sa.Table(
    "bl_site_secret",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("secret", sa.String(128), nullable=False),
)

# Web Push (server/push.py, migration 0010): the site's VAPID key pair, made on first start, and each account's
# browsers' push subscriptions (the push service's endpoint and the browser's keys for the payload's encryption)
push_keys_t = sa.Table(
    "bl_push_keys",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("private_key", sa.String(64), nullable=False),  # the P-256 scalar, base64url
    sa.Column("public_key", sa.String(100), nullable=False),  # the uncompressed point, base64url
)

push_subs_t = sa.Table(
    "bl_push_subs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("bl_users.id"), nullable=False),
    sa.Column("endpoint", sa.String(1000), nullable=False, unique=True),
    sa.Column("p256dh", sa.String(100), nullable=False),
    sa.Column("auth", sa.String(40), nullable=False),
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_bl_push_subs_user", "user_id"),
)
