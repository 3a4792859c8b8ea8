"""ratings and match results

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 23:29:14.004344
"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('player_ratings',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('player_id', 'game')
    )
    with op.batch_alter_table('player_ratings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_ratings_game'), ['game'], unique=False)

    op.create_table('match_results',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('rank', sa.Integer(), nullable=True),
    sa.Column('rated', sa.Boolean(), nullable=False),
    sa.Column('mu_before', sa.Float(), nullable=True),
    sa.Column('sigma_before', sa.Float(), nullable=True),
    sa.Column('mu_after', sa.Float(), nullable=True),
    sa.Column('sigma_after', sa.Float(), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('match_id', 'seat', name='uq_match_results_match_seat')
    )
    with op.batch_alter_table('match_results', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_match_results_finished_at'), ['finished_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_match_results_match_id'), ['match_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_match_results_player_id'), ['player_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('match_results', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_match_results_player_id'))
        batch_op.drop_index(batch_op.f('ix_match_results_match_id'))
        batch_op.drop_index(batch_op.f('ix_match_results_finished_at'))

    op.drop_table('match_results')
    with op.batch_alter_table('player_ratings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_ratings_game'))

    op.drop_table('player_ratings')
