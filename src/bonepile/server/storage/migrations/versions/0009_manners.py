"""Challenges between named players, blocks, and reports for the site's operator.

Revision ID: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the challenges, blocks and reports."""
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("from_id", sa.String(32), nullable=False),
        sa.Column("to_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_challenges_to", "challenges", ["to_id", "status"])
    op.create_index("ix_challenges_from", "challenges", ["from_id", "status"])
    op.create_table(
        "blocks",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("blocked_id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("reporter_id", sa.String(32), nullable=False),
        sa.Column("reporter", sa.String(20), nullable=False),
        sa.Column("reported_id", sa.String(32), nullable=False),
        sa.Column("reported", sa.String(20), nullable=False),
        sa.Column("hand", sa.String(48), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_reports_created", "reports", ["created"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_reports_created", "reports")
    op.drop_table("reports")
    op.drop_index("ix_blocks_blocked", "blocks")
    op.drop_table("blocks")
    op.drop_index("ix_challenges_from", "challenges")
    op.drop_index("ix_challenges_to", "challenges")
    op.drop_table("challenges")
