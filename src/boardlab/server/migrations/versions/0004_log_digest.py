"""A digest of the state after every log row (`bl_log.digest`, table.state_digest): a server that rebuilds a
table from its log checks that it rebuilt the state it served before (issue #32: after a restart one table
showed another state at the same move). Rows from before have none and are not checked.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bl_log", sa.Column("digest", sa.String(24), nullable=True))


def downgrade() -> None:
    op.drop_column("bl_log", "digest")
