"""The storage schema's Alembic migrations (run by :class:`bonepile.server.storage.store.Store`)."""
