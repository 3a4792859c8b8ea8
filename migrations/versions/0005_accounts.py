"""accounts (claimed names, argon2 password hashes) and their log-in sessions

Revision ID: 0005
Revises: 0004
"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('accounts',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('name_key', sa.String(length=80), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('player_id'),
    sa.UniqueConstraint('name_key')
    )
    op.create_table('account_sessions',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('device', sa.String(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash')
    )
    with op.batch_alter_table('account_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_account_sessions_player_id'), ['player_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('account_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_account_sessions_player_id'))
    op.drop_table('account_sessions')
    op.drop_table('accounts')
