"""Who played each seat (`bl_table_site.seat_play`, JSON `{stood_in: [...], moved: [...]}`): the seats a
stand-in bot moved for and the seats whose player moved themselves. A rated table does not rate a seat whose
result a bot helped decide, nor an account that never moved, nor anyone for a win against it (issue #32;
docs/server.md, "Rated tables and ratings").

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
    op.add_column("bl_table_site", sa.Column("seat_play", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("bl_table_site", "seat_play")
