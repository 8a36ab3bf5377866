"""Table leases (`bl_leases`): which server process of a cluster owns a table until when (issue #37,
server/cluster.py). A single server never reads or writes it.

Revision ID: 0009_leases
Revises: 0008_mail
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_leases"
down_revision = "0008_mail"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bl_leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bl_leases")
