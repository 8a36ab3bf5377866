"""Web Push (issue #34, server/push.py): the site's VAPID key pair (`bl_push_keys`, one row, made on first start)
and the accounts' push subscriptions (`bl_push_subs`).

Revision ID: 0010_push
Revises: 0009_leases
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_push"
down_revision = "0009_leases"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bl_push_keys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("private_key", sa.String(64), nullable=False),
        sa.Column("public_key", sa.String(100), nullable=False),
    )
    op.create_table(
        "bl_push_subs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("bl_users.id"), nullable=False),
        sa.Column("endpoint", sa.String(1000), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(40), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_bl_push_subs_user", "bl_push_subs", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_bl_push_subs_user", "bl_push_subs")
    op.drop_table("bl_push_subs")
    op.drop_table("bl_push_keys")
