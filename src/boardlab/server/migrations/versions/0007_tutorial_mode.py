"""A table's mode (`bl_tables.mode`): "tutorial" for a guided first game (issue #31: the game's scripted opening,
the bot's scripted replies, then free play against an easy bot), NULL for every other table.

Revision ID: 0007
Revises: 0006_social
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006_social"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bl_tables", sa.Column("mode", sa.String(16), nullable=True))


def downgrade() -> None:
    op.drop_column("bl_tables", "mode")
