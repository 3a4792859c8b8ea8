"""The live layer: rooms in memory, their sockets, and the one-at-a-time apply path of a match."""
