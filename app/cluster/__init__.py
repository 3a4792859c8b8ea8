"""Several processes as one server: PostgreSQL is the record, Redis carries presence, routing and
fan-out (docs/scaling.md). Without ``REDIS_URL`` nothing here runs and the server is one process.

``bus`` (prefixed names, ordered publishing, subscriptions that survive a Redis restart,
request/reply), ``lease`` (which process owns a running room), ``fencing`` (the owner's epoch,
checked in every commit), ``presence`` (who is connected, over all processes), ``limits``
(rate-limit buckets shared in Redis). Imports go one way: app.cluster uses app.models,
app.errors and app.limits; nothing outside imports it but the wiring."""
