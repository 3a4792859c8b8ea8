"""Unit tests of the live path, in process: no server, no socket, no real network and no real time
(the fake clock and the in-memory parts of tests/support/live_parts.py); a real migrated SQLite
file where a store call is the subject."""
