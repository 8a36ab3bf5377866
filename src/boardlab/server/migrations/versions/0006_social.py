"""Friends, blocks, chat reports and the spectators' chat channel (issue #34): `bl_friends`, `bl_blocks`,
`bl_reports`, and on `bl_chat` the line's `channel` ("players" or "spectators") and its author's account
(`user_id`), so a blocked author's lines are not shown and a report names who wrote it. docs/server.md, "Friends,
blocks and reports".

Revision ID: 0006_social
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_social"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bl_chat", sa.Column("channel", sa.String(12), nullable=False, server_default="players"))
    op.add_column("bl_chat", sa.Column("user_id", sa.Integer, nullable=True))
    op.create_table(
        "bl_friends",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("bl_users.id"), primary_key=True),
        sa.Column("friend_id", sa.Integer, sa.ForeignKey("bl_users.id"), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "bl_blocks",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("bl_users.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer, sa.ForeignKey("bl_users.id"), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "bl_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("bl_users.id"), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("bl_tables.id"), nullable=False),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("author_name", sa.String(64), nullable=False),
        sa.Column("author_id", sa.Integer, nullable=True),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("reporter_id", "table_id", "n", name="uq_bl_reports_line"),
    )
    op.create_index("ix_bl_reports_reporter", "bl_reports", ["reporter_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_bl_reports_reporter", table_name="bl_reports")
    for name in ("bl_reports", "bl_blocks", "bl_friends"):
        op.drop_table(name)
    with op.batch_alter_table("bl_chat") as batch:
        batch.drop_column("user_id")
        batch.drop_column("channel")
