"""One site on several processes: each table's lease (which process decides its moves, and
the fencing epoch that process writes under), each process's lease on life, and the site's
own row (its name on the message bus and the key its processes sign cookies and derive seat
tokens with).

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the processes' expiry and mode, and the table leases (one per stored table)."""
    with op.batch_alter_table("processes") as batch:
        batch.add_column(sa.Column("expires", sa.Float, nullable=False, server_default="0"))
        batch.add_column(sa.Column("mode", sa.String(8), nullable=False, server_default="solo"))
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=True),
        sa.Column("epoch", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_index("ix_table_leases_owner", "table_leases", ["owner"])
    op.execute(
        "INSERT INTO table_leases (table_id, owner, epoch, since) SELECT id, NULL, 0, created"
        " FROM tables"
    )
    op.create_table(
        "site",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("key", sa.String(32), nullable=False),
        sa.Column("secret", sa.String(128), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("site")
    op.drop_index("ix_table_leases_owner", "table_leases")
    op.drop_table("table_leases")
    with op.batch_alter_table("processes") as batch:
        batch.drop_column("mode")
        batch.drop_column("expires")
