"""the address (hashed) a room's host last created, started or seated a bot from: the caps on
running tables and bot seats per address

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26 10:00:00
"""
import sqlalchemy as sa
from alembic import op


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('host_address_hash', sa.String(length=64), nullable=True))
        batch_op.create_index('ix_rooms_host_address_hash', ['host_address_hash'])


def downgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_index('ix_rooms_host_address_hash')
        batch_op.drop_column('host_address_hash')
