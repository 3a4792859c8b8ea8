"""lean action log: drop the index on match_actions.match_id

The unique (match_id, idx) constraint already indexes match_id first, so every INSERT into the
log was maintaining a second, redundant index. ``matches.version`` / ``matches.state`` are from
now on the latest snapshot (every ``snapshot_every`` actions and at the end), not updated per action.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 02:30:00
"""
from alembic import op


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('match_actions', schema=None) as batch_op:
        batch_op.drop_index('ix_match_actions_match_id')


def downgrade() -> None:
    with op.batch_alter_table('match_actions', schema=None) as batch_op:
        batch_op.create_index('ix_match_actions_match_id', ['match_id'], unique=False)
