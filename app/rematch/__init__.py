"""Rematch: after a match ends, the same room plays again with the same seats and a new seed.

Every seated person confirms (bots confirm at once); the last confirmation starts the new match,
and the old match is linked to it (``match_rematches``). Votes and links live in their own tables
(``app.rematch.models``); ``app.rematch.service`` does the database work off the event loop."""
