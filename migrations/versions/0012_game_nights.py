"""game nights (issue 33): nights, their members and matches, and the night a room belongs to

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25 17:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('nights',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('host_id', sa.String(length=32), nullable=False),
    sa.Column('scoring', sa.String(length=8), nullable=False),
    sa.Column('best_of', sa.Integer(), nullable=True),
    sa.Column('choose', sa.String(length=8), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('end_reason', sa.String(length=16), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['host_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('nights', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_nights_host_id'), ['host_id'], unique=False)

    op.create_table('night_members',
    sa.Column('night_id', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('left', sa.Boolean(), nullable=False),
    sa.Column('vote', sa.String(length=32), nullable=True),
    sa.Column('bot_level', sa.String(length=16), nullable=True),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['night_id'], ['nights.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('night_id', 'player_id')
    )
    op.create_table('night_matches',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('night_id', sa.String(length=64), nullable=False),
    sa.Column('room_id', sa.String(length=64), nullable=False),
    sa.Column('idx', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('first_player_id', sa.String(length=32), nullable=True),
    sa.Column('teams', sa.JSON(), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.ForeignKeyConstraint(['night_id'], ['nights.id'], ),
    sa.PrimaryKeyConstraint('match_id')
    )
    with op.batch_alter_table('night_matches', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_night_matches_night_id'), ['night_id'], unique=False)

    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('night_id', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_rooms_night_id'), ['night_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rooms_night_id'))
        batch_op.drop_column('night_id')

    with op.batch_alter_table('night_matches', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_night_matches_night_id'))

    op.drop_table('night_matches')
    op.drop_table('night_members')
    with op.batch_alter_table('nights', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_nights_host_id'))

    op.drop_table('nights')
