"""Alembic's entry point: migrate the connection the store hands over (never a URL of its own)."""

from __future__ import annotations

from alembic import context

from bonepile.server.storage.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the store always passes its connection
    raise RuntimeError("bonepile migrations run through bonepile.server.storage.store.Store")
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
