"""The first schema: tables, their journals and finished games.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "entries",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("entry", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(48), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("names", sa.Text, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    )
    op.create_index("ix_games_finished", "games", ["finished"])
    op.create_index("ix_games_table_id", "games", ["table_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_table("games")
    op.drop_table("entries")
    op.drop_table("tables")
