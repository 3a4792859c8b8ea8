"""match owners: fencing tokens of a cluster's running matches

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 02:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('match_owners',
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('epoch', sa.Integer(), nullable=False),
    sa.Column('node_id', sa.String(length=32), nullable=False),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.PrimaryKeyConstraint('match_id')
    )


def downgrade() -> None:
    op.drop_table('match_owners')
