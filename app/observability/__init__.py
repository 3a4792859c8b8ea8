"""What an operator sees of a running process: Prometheus metrics (``metrics``), structured logs
with room/match/seat/request ids (``logs``), and the per-request middleware that ties them to
each HTTP request and WebSocket (``middleware``). Nothing here imports the live layer: the live
code calls into these modules, never the other way round."""
