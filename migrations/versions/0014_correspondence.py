"""correspondence tables: a room's and a match's pace and deadline rule, the deadlines of
correspondence matches (re-armed after a restart or a take-over), players' vacations, and how far
each player has read each room's chat ("my tables")

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25 17:10:00
"""
import sqlalchemy as sa
from alembic import op


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ('rooms', 'matches'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('pace', sa.String(length=8), server_default='live', nullable=False))
            batch_op.add_column(sa.Column('on_deadline', sa.String(length=8), server_default='bot', nullable=False))
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('vacation_from', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('vacation_until', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('vacation_year', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('vacation_used', sa.Float(), server_default='0', nullable=False))
    op.create_table(
        'match_deadlines',
        sa.Column('match_id', sa.String(length=32), sa.ForeignKey('matches.id'), primary_key=True),
        sa.Column('seat', sa.Integer(), primary_key=True),
        sa.Column('due_at', sa.Float(), nullable=False),
        sa.Column('warned', sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.create_index('ix_match_deadlines_due_at', 'match_deadlines', ['due_at'])
    op.create_table(
        'chat_reads',
        sa.Column('player_id', sa.String(length=32), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('room_id', sa.String(length=64), sa.ForeignKey('rooms.id'), primary_key=True),
        sa.Column('last_id', sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('chat_reads')
    op.drop_index('ix_match_deadlines_due_at', table_name='match_deadlines')
    op.drop_table('match_deadlines')
    with op.batch_alter_table('players', schema=None) as batch_op:
        for column in ('vacation_used', 'vacation_year', 'vacation_until', 'vacation_from'):
            batch_op.drop_column(column)
    for table in ('matches', 'rooms'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('on_deadline')
            batch_op.drop_column('pace')
