"""Several processes as one server: PostgreSQL is the record, Redis carries presence, routing and
fan-out (docs/scaling.md). Without ``REDIS_URL`` nothing here runs and the server is one process.

One job per module: ``bus`` (prefixed names, subscriptions that survive a Redis restart) with
``outbox`` (publishing in order) and ``requests`` (request/reply between processes);
``messages`` (what the processes say to each other); ``lease`` (which process should own a
running room) and ``fencing`` (the owner's epoch, checked in every commit); ``placement`` (own,
mirror or show a room's match), ``ownership`` (the rooms this process runs), ``mirror`` and
``mirroring`` (matches owned elsewhere), ``forwarding`` (a mirror's actions to the owner),
``sweep`` (heartbeats, lease renewal, take-overs); ``presence`` (who is connected, over all
processes); ``room`` and ``hub`` (the live room and hub wired to these); ``limits`` (rate-limit
buckets shared in Redis). Imports go one way: app.cluster uses app.live, app.models, app.errors
and app.limits; nothing outside imports it but the wiring (and
app.accounts.live_sessions, for its message)."""
