"""Quick pairing: the people waiting in each pool, and the row pairing passes take turns on.

Revision ID: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the seekers and the pairing lock."""
    op.create_table(
        "seekers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("owner", sa.String(32), nullable=False, unique=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("rating", sa.Float, nullable=True),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_seekers_pool", "seekers", ["pool"])
    lock = op.create_table(
        "pairing_lock",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("passes", sa.BigInteger, nullable=False),
    )
    op.bulk_insert(lock, [{"id": 1, "passes": 0}])


def downgrade() -> None:
    """Drop them."""
    op.drop_table("pairing_lock")
    op.drop_index("ix_seekers_pool", "seekers")
    op.drop_table("seekers")
