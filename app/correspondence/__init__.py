"""Play across time (issue 31): correspondence tables whose deadlines are days, kept in the
database and fired once by the match's owner (``path``); the player's tables (``tables``);
vacations that pause a player's correspondence clocks (``vacation``).

``pace`` and ``records`` are leaves (engines and models only), so the store, the runner and the
routers can all import them."""
