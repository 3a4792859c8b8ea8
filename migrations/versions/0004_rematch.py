"""rematch votes and links between a match and its rematch

Revision ID: 0004
Revises: 0003
"""
from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('rematch_votes',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('match_id', 'seat')
    )
    op.create_table('match_rematches',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('rematch_id', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.ForeignKeyConstraint(['rematch_id'], ['matches.id'], ),
    sa.PrimaryKeyConstraint('match_id'),
    sa.UniqueConstraint('rematch_id')
    )


def downgrade() -> None:
    op.drop_table('match_rematches')
    op.drop_table('rematch_votes')
