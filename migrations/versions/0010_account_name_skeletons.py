"""accounts' names are unique by their Unicode confusable skeleton (UTS #39): a look-alike of an
account's name cannot be claimed by another account

Existing accounts get their name's skeleton; where two already share one, the older keeps it and
the later one stays without (NULL: it keeps its name, and still blocks nobody twice).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25 14:40:00
"""
import sqlalchemy as sa
from alembic import op

from app.names import skeleton


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name_skeleton', sa.String(length=160), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.text(
        "SELECT accounts.player_id, players.name FROM accounts JOIN players ON players.id = accounts.player_id "
        "ORDER BY accounts.created_at")).all()
    seen = set()
    for player_id, name in rows:
        key = skeleton(name)[:160]
        if key in seen:
            continue
        seen.add(key)
        connection.execute(sa.text("UPDATE accounts SET name_skeleton = :key WHERE player_id = :id"),
                           {"key": key, "id": player_id})
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.create_unique_constraint('uq_accounts_name_skeleton', ['name_skeleton'])


def downgrade() -> None:
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.drop_constraint('uq_accounts_name_skeleton', type_='unique')
        batch_op.drop_column('name_skeleton')
