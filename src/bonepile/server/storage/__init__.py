"""Storage: the database (SQLAlchemy 2 on SQLite or PostgreSQL), its Alembic migrations, and the
writer that batches writes."""
