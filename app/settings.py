"""The one settings class: everything configurable comes from the environment (or .env)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = f"sqlite:///{ROOT / 'data' / 'asobiba.db'}"
    host: str = "127.0.0.1"
    port: int = 8000
    # Base of invite links; empty = derived from host and port.
    public_url: str = ""
    # Bearer token for /api/admin/*; empty disables the admin API.
    admin_token: str = ""
    # Largest WebSocket text frame / REST action body we accept, in bytes.
    max_frame_bytes: int = 16_384
    # Reconnecting clients get the views they missed when the gap is at most this many versions.
    resync_window: int = 64
    # Seconds a server-side bot waits before acting, so humans can follow (room option overrides).
    bot_think_seconds: float = 0.8
    # Chat: longest message, and messages per sender per 10 seconds.
    chat_max_chars: int = 500
    chat_rate_per_10s: int = 5

    def invite_base(self) -> str:
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")


@lru_cache
def get_settings() -> Settings:
    return Settings()
