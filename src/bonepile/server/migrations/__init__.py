"""The storage schema's Alembic migrations (run by :class:`bonepile.server.store.Store`)."""
