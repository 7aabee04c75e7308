"""Who serves the database: one row whose epoch a serving process raises as it starts (a
server alone always, the first process of a site), and which every write checks, so that a
process whose hold on the database lapsed (a network cut, a restart of the database) while
another started can store nothing more.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the serving row, at epoch 0 (nobody has served under a fence yet)."""
    op.create_table(
        "serving",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("holder", sa.String(255), nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.execute("INSERT INTO serving (id, epoch, mode, holder, since) VALUES (1, 0, 'none', '', 0)")


def downgrade() -> None:
    """Drop it."""
    op.drop_table("serving")
