"""Publishing in order: every message this process publishes goes through one queue and one task,
so two messages arrive everywhere in the order they were published (a forwarded action's reply
never overtakes the views it produced), and a burst leaves in one pipeline (one round trip)."""

from __future__ import annotations

import asyncio
import logging

from redis.exceptions import RedisError

from app.cluster.requests import Unanswered

log = logging.getLogger("asobiba.cluster")


class Outbox:
    def __init__(self, redis):
        self.redis = redis
        self._queue: asyncio.Queue[tuple[str, str, asyncio.Future | None]] = asyncio.Queue()
        self.published = 0  # messages published since start

    def put(self, channel: str, text: str) -> None:
        self._queue.put_nowait((channel, text, None))

    async def put_and_wait(self, channel: str, text: str) -> int:
        """Publish after everything queued before it; returns how many subscribers received it
        (``Unanswered`` when Redis could not be reached: the PUBLISH may or may not have left)."""
        done = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((channel, text, done))
        return await done

    async def run(self) -> None:
        """Everything queued goes out in one pipeline per round (in order): one round trip for a
        burst of messages instead of one each."""
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 256:
                batch.append(self._queue.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text, _ in batch:
                        pipe.publish(channel, text)
                    results = await pipe.execute()
                self.published += len(batch)
            except (RedisError, OSError, RuntimeError) as exc:  # (RuntimeError: the client library's state broke)
                # Fan-out is best effort while Redis is down: subscribers resync when it is back;
                # a request's caller learns that its message was lost. The loop never ends here: a
                # dead outbox would leave this process mute while it still hears everything.
                log.warning("publishing %d message(s) failed (%r)", len(batch), exc)
                for _, _, done in batch:
                    if done is not None and not done.done():
                        # (the PUBLISH may have reached Redis before the connection broke)
                        done.set_exception(Unanswered(f"Redis is unreachable: {exc}"))
                continue
            for (_, _, done), receivers in zip(batch, results):
                if done is not None and not done.done():
                    done.set_result(receivers)
