"""Your-turn e-mails (issue #34, server/mail.py): on `bl_users` the address, whether the account asked for the
e-mails (off by default) and their language.

Revision ID: 0008_mail
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_mail"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bl_users", sa.Column("email", sa.String(254), nullable=True))
    op.add_column("bl_users", sa.Column("mail_turns", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("bl_users", sa.Column("mail_lang", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bl_users") as batch:
        batch.drop_column("mail_lang")
        batch.drop_column("mail_turns")
        batch.drop_column("email")
