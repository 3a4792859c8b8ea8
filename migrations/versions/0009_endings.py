"""endings and casual tables: a room's rated setting (copied to each match), the new table a room
points to, and how a match ended when it was not played out

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 14:10:00
"""
import sqlalchemy as sa
from alembic import op


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), server_default=sa.true(), nullable=False))
        batch_op.add_column(sa.Column('next_room_id', sa.String(length=64), nullable=True))
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), server_default=sa.true(), nullable=False))
        batch_op.add_column(sa.Column('ending', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('ending')
        batch_op.drop_column('rated')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('next_room_id')
        batch_op.drop_column('rated')
