"""The one SQLAlchemy `MetaData` every table of the schema joins: the tables' own (db.py) and the
site's (sitedb.py), so the Alembic migrations and tests/server/test_misc.py see one schema. Its own
module so that neither schema module has to import the other back."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()
