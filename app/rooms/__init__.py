"""Rooms: what a table's people can do to it, apart from HTTP.

``checks`` holds the refusals several paths share (host only, the room still open, a seated caller
of a started match); ``table`` a new room and the host's changes to its size and options;
``seating`` joining, leaving and a seat's private data; ``start`` the start of the match; ``bots``
seating and removing a bot. Those are transactions, functions of a session run in a database
worker (``db.run``). ``service`` runs them under the room's lock (``hub.lock``) and tells the hub
(``hub.refresh``, the runner's lock and ``reschedule``): the routers parse the request, call it
and return what it gives."""
