"""The site around the games: accounts, sessions, seat owners, ratings, results, clocks, chat.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bl_users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("pw_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "bl_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("bl_users.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "bl_seat_users",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("bl_users.id"), nullable=False),
    )
    op.create_index("ix_bl_seat_users_user", "bl_seat_users", ["user_id"])
    op.create_table(
        "bl_table_site",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bot_level", sa.String(16), nullable=False),
        sa.Column("bot_pace", sa.Float, nullable=False),
        sa.Column("clock", sa.Text, nullable=True),
        sa.Column("clock_state", sa.Text, nullable=True),
        sa.Column("leavers", sa.Text, nullable=False),
        sa.Column("rated_done", sa.Boolean, nullable=False),
    )
    op.create_table(
        "bl_ratings",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "bl_results",
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
    )
    op.create_index("ix_bl_results_player", "bl_results", ["player"])
    op.create_table(
        "bl_chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "bl_site_secret",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("secret", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    for name in ("bl_site_secret", "bl_chat", "bl_results", "bl_ratings", "bl_table_site", "bl_seat_users",
                 "bl_sessions", "bl_users"):
        op.drop_table(name)
