"""Accounts: a guest claims their name with a password and can then log in on another device, as
the same player (same id, so ratings and history follow). Guests keep playing without one.

Passwords are hashed with argon2 (``app.accounts.passwords``); a log-in opens a *session*: a
random bearer token stored hashed, which expires (``Settings.session_days``) and can be revoked
(``app.accounts.service``). Claiming retires the guest token, so every token of a claimed player is
a session. Passwords are never logged nor echoed: bodies hold them as ``SecretStr``."""
