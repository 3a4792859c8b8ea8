"""Bot seats, chat, the NDJSON stream and the reference client, against a real server."""
