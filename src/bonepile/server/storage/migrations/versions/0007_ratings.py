"""Ratings (one per account, game and player count), their history, the tables rated, and
whether an account shows its finished hands to others.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _account() -> sa.Column[str]:
    return sa.Column(
        "account_id",
        sa.String(32),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=True,
    )


def upgrade() -> None:
    """Create the ratings, their history and the rated tables."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(
            sa.Column("hide_history", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_table(
        "ratings",
        _account(),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "players", "mu"])
    op.create_table(
        "rating_history",
        _account(),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
    )
    op.create_index(
        "ix_rating_history_account", "rating_history", ["account_id", "game", "players", "at"]
    )
    op.create_table(
        "rated_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("rated_tables")
    op.drop_index("ix_rating_history_account", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("hide_history")
