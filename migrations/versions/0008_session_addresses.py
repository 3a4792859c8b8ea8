"""the address a log-in session was opened from (hashed): a known-good address of the account,
whose log-ins pass the account's global log-in bucket while strangers have drained it

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 14:10:00
"""
import sqlalchemy as sa
from alembic import op


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('account_sessions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('address_hash', sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('account_sessions', schema=None) as batch_op:
        batch_op.drop_column('address_hash')
