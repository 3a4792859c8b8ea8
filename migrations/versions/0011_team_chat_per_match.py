"""team chat belongs to a match's team: a rematch deals new teams, so a team message carries its
match and a team's history shows only its own match's messages (older team messages, stored
without one, are shown to nobody's team any more)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25 14:50:00
"""
import sqlalchemy as sa
from alembic import op


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('chat_messages', schema=None) as batch_op:
        batch_op.add_column(sa.Column('match_id', sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('chat_messages', schema=None) as batch_op:
        batch_op.drop_column('match_id')
