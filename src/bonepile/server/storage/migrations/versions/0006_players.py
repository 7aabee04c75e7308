"""Who played which finished hand, and the browser id each account plays under.

``game_players`` links a finished hand's seats to the browser ids (or an account's) that held
them, so that a player's history is one indexed query. ``accounts.owner`` is the id an
account's seats are held under, on every device it signs in on.

Revision ID: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the account's owner id and the hands' seats."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
    op.execute("UPDATE accounts SET owner = id WHERE owner IS NULL")
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("owner", existing_type=sa.String(32), nullable=False)
        batch.create_unique_constraint("uq_accounts_owner", ["owner"])
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(48), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("owner", sa.String(32), nullable=True),
    )
    op.create_index("ix_game_players_owner", "game_players", ["owner"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_game_players_owner", "game_players")
    op.drop_table("game_players")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_owner", type_="unique")
        batch.drop_column("owner")
