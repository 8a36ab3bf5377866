"""The seats a stand-in bot moved for (`bl_table_site.stood_in`, a JSON list): a rated table does not rate a
seat whose result a bot helped decide (issue #32; docs/server.md, "Rated tables and ratings").

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bl_table_site", sa.Column("stood_in", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("bl_table_site", "stood_in")
