"""zombie seats: a room's grace period before an absent player's seat goes to a bot, and the
record of each such abandonment

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 03:20:00
"""
import sqlalchemy as sa
from alembic import op


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('grace_seconds', sa.Float(), nullable=True))
    op.create_table(
        'abandonments',
        sa.Column('id', sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column('match_id', sa.String(length=32), sa.ForeignKey('matches.id'), nullable=False),
        sa.Column('player_id', sa.String(length=32), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('match_id', 'seat', 'player_id', name='uq_abandonment'),
    )
    op.create_index('ix_abandonments_player_id', 'abandonments', ['player_id'])


def downgrade() -> None:
    op.drop_index('ix_abandonments_player_id', table_name='abandonments')
    op.drop_table('abandonments')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('grace_seconds')
