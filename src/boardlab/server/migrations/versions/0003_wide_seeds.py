"""Table seeds as decimal text: a table's seed is now 128 random bits (core/rng.py's wide generator),
which no BIGINT holds. Existing rows keep their seeds (as the same number in decimal).

Why text and not NUMERIC: SQLite stores a NUMERIC too wide for 64 bits as a lossy REAL. Why the
four steps on SQLite instead of Alembic's batch mode: batch mode rebuilds the table, and dropping
`bl_tables` while `PRAGMA foreign_keys=ON` and other tables point at it fails (the pragma cannot be
turned off inside the migration's transaction); adding, filling, dropping and renaming a column
never drops the table. The SQLite column keeps `DEFAULT ''` from the add (SQLite cannot add a NOT NULL
column without one); the server always writes a seed, and '' would fail loudly on reading.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE bl_tables ADD COLUMN seed_text VARCHAR(64) NOT NULL DEFAULT ''")
        op.execute("UPDATE bl_tables SET seed_text = CAST(seed AS TEXT)")
        op.execute("ALTER TABLE bl_tables DROP COLUMN seed")
        op.execute("ALTER TABLE bl_tables RENAME COLUMN seed_text TO seed")
    else:
        op.alter_column("bl_tables", "seed", type_=sa.String(64), existing_type=sa.BigInteger,
                        existing_nullable=False, postgresql_using="seed::text")


def downgrade() -> None:
    """Only while every seed still fits a BIGINT (no table created since the upgrade)."""
    bind = op.get_bind()
    seeds = [int(s) for (s,) in bind.execute(sa.text("SELECT seed FROM bl_tables"))]
    wide = sum(1 for s in seeds if not -(2**63) <= s < 2**63)
    if wide:
        raise RuntimeError(f"{wide} tables have seeds wider than a BIGINT; they cannot be downgraded")
    if bind.dialect.name == "sqlite":
        op.execute("ALTER TABLE bl_tables ADD COLUMN seed_int BIGINT NOT NULL DEFAULT 0")
        op.execute("UPDATE bl_tables SET seed_int = CAST(seed AS INTEGER)")
        op.execute("ALTER TABLE bl_tables DROP COLUMN seed")
        op.execute("ALTER TABLE bl_tables RENAME COLUMN seed_int TO seed")
    else:
        op.alter_column("bl_tables", "seed", type_=sa.BigInteger, existing_type=sa.String(64),
                        existing_nullable=False, postgresql_using="seed::bigint")
