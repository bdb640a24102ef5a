"""Alembic environment: always runs on the connection handed in by ``migrate.migrate``."""

from __future__ import annotations

from alembic import context

from jobctrl.projections.migrate import VERSION_TABLE
from jobctrl.projections.schema import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    version_table=VERSION_TABLE,
    render_as_batch=True,
    transactional_ddl=True,
)
with context.begin_transaction():
    context.run_migrations()
