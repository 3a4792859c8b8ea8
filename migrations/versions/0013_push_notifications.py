"""web push (issue 31): subscriptions per browser, each player's choice of notifications, and
secrets the server makes once for every process (the VAPID key)

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25 17:20:00
"""
import sqlalchemy as sa
from alembic import op


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'push_subscriptions',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('player_id', sa.String(length=32), nullable=False),
        sa.Column('endpoint', sa.String(length=1024), nullable=False),
        sa.Column('p256dh', sa.String(length=128), nullable=False),
        sa.Column('auth', sa.String(length=64), nullable=False),
        sa.Column('lang', sa.String(length=8), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('endpoint'),
    )
    op.create_index('ix_push_subscriptions_player_id', 'push_subscriptions', ['player_id'])
    op.create_table(
        'notification_prefs',
        sa.Column('player_id', sa.String(length=32), nullable=False),
        sa.Column('your_turn', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('hours_left', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('match_ended', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('chat_mention', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('sound', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('player_id'),
    )
    op.create_table(
        'server_secrets',
        sa.Column('name', sa.String(length=64), nullable=False),
        sa.Column('value', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('name'),
    )


def downgrade() -> None:
    op.drop_table('server_secrets')
    op.drop_table('notification_prefs')
    op.drop_index('ix_push_subscriptions_player_id', table_name='push_subscriptions')
    op.drop_table('push_subscriptions')
