"""Alembic environment: the URL comes from the config (app.db) or else from the settings."""

from alembic import context
from sqlalchemy import create_engine

from app.models import Base
import app.accounts.models, app.nights.models, app.push.models, app.rematch.models  # noqa: F401,E401  (feature packages register their tables on Base)
from app.settings import get_settings

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    url = config.get_main_option("sqlalchemy.url") or get_settings().database_url
    connectable = create_engine(url, hide_parameters=True)  # (values stay out of error texts, as in app/db.py)
    with connectable.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=url.startswith("sqlite"), compare_type=True)
        with context.begin_transaction():
            context.run_migrations()
    connectable.dispose()


run_migrations()
