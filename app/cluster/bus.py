"""This process's line to Redis: prefixed key and channel names, publishing in order, channel
subscriptions that survive a Redis restart, and request/reply between processes.

Every message is one JSON object. Publishing goes through one queue and one task, so two
messages published by this process arrive everywhere in the order they were published (a
forwarded action's reply never overtakes the views it produced). The subscriber reconnects by
itself and subscribes again to every channel; ``on_reconnect`` callbacks then let the owners of
state that may have missed messages resync it. A subscription can also go quiet with no error
reaching the listener: each process probes its own channel (``hearing``) and subscribes again
from scratch when it stops hearing itself. The listener, the outbox and the probe never end on an
error: any of them dead would leave the process deaf or mute while the rest of it runs on (its
asks unanswered, its mirrors behind) with nothing in the log.

Redis may deliver a message twice: when a connection breaks mid-pipeline, the client library
sends the whole pipeline again once it reconnects, and the PUBLISHes that had already gone out go
out again. Fan-out messages carry versions, so a copy is harmless; a request is handled once per
id (a copy waits for the first one's answer and gets the same reply), so a forwarded action can
never be applied by its first copy and refused as stale by its second."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any, Awaitable, Callable

import redis.asyncio as redis
from redis.exceptions import RedisError

from app import json_codec
from app.cluster.hearing import PROBE_TIMEOUT, Hearing
from app.cluster.messages import Answer, Ask, Operation, Probe, Reply, Request, dump, parse
from app.cluster.outbox import Outbox
from app.cluster.requests import RemoteError, Requests, Unanswered, Unreachable
from app.cluster.resync import Resync

__all__ = ["Bus", "PROBE_TIMEOUT", "RemoteError", "Unanswered", "Unreachable"]

log = logging.getLogger("asobiba.cluster")


Handler = Callable[[dict], None]


class Bus:
    def __init__(self, url: str, prefix: str, node_id: str | None = None):
        self.prefix = prefix
        self.node_id = node_id or secrets.token_hex(6)
        self.redis = redis.Redis.from_url(url, decode_responses=True, socket_connect_timeout=2,
                                          socket_timeout=5, health_check_interval=5)
        self._url = url
        self._handlers: dict[str, Handler] = {}
        self.requests = Requests(self)
        self.outbox = Outbox(self.redis)
        self._pubsub: Any = None  # redis's PubSub once started
        self._changed = asyncio.Event()
        self._waiting: dict[str, list[asyncio.Event]] = {}  # channel -> set once Redis confirms it
        self._confirmed: set[str] = set()  # channels Redis has confirmed on the current connection
        self._tasks: list[asyncio.Task] = []
        self._resync = Resync()
        self.on_reconnect = self._resync.callbacks  # run in a task of their own after each reconnect
        self.hearing = Hearing(lambda: self.publish_now(self.node_channel(self.node_id), dump(Probe())))

    # --- names -------------------------------------------------------------------------------

    def key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    def node_channel(self, node_id: str) -> str:
        return self.key("node", node_id)

    # --- life --------------------------------------------------------------------------------

    async def start(self) -> None:
        await self.redis.ping()
        self.subscribe(self.node_channel(self.node_id), self._on_node_message)
        self._pubsub = await self._subscribed_pubsub()
        self.hearing.heard()
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self.outbox.run()),
                       asyncio.create_task(self.hearing.run())]

    def stop(self) -> None:
        """Stop listening and publishing now (no await: a process's last moments)."""
        for task in self._running():
            task.cancel()

    def _running(self) -> list[asyncio.Task]:
        return [*self._tasks, *([self._resync.task] if self._resync.task else [])]

    async def close(self) -> None:
        self.stop()
        for task in self._running():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        self.requests.close()

    # --- channels ----------------------------------------------------------------------------

    def subscribe(self, channel: str, handler: Handler) -> asyncio.Event:
        """Deliver every message on ``channel`` to ``handler`` (called on the event loop, must not
        block). The returned event is set once Redis has confirmed the subscription (every message
        published after that reaches ``handler``): await it before reading the state that later
        messages on the channel will change. (A SUBSCRIBE merely sent may still be unread by Redis
        when a read on another connection is answered: a message published in between was lost.)"""
        self._handlers[channel] = handler
        subscribed = asyncio.Event()
        if channel in self._confirmed:
            subscribed.set()
        else:
            self._waiting.setdefault(channel, []).append(subscribed)
            self._changed.set()
        return subscribed

    def unsubscribe(self, channel: str) -> None:
        if self._handlers.pop(channel, None) is not None:
            self._changed.set()

    def subscribed(self, channel: str) -> bool:
        return channel in self._handlers

    def publish(self, channel: str, message: dict) -> None:
        """Queue ``message`` for ``channel``; messages leave in the order they were queued."""
        self.outbox.put(channel, json_codec.dumps_text(message))

    async def publish_now(self, channel: str, message: dict) -> int:
        """Publish after everything queued before it; returns how many subscribers received it."""
        return await self.outbox.put_and_wait(channel, json_codec.dumps_text(message))

    @property
    def published(self) -> int:
        """Messages published since start (benchmarks read it)."""
        return self.outbox.published

    # --- request / reply (app/cluster/requests.py) -------------------------------------------

    def serve(self, op: Operation[Ask, Answer], handler: Callable[[Ask], Awaitable[Answer]]) -> None:
        """Answer requests ``op`` sent to this node; ``handler(ask)`` returns the answer or
        raises; an exception with ``as_dict()`` (``ApiError``) is sent back as it is."""
        self.requests.serve(op, handler)

    async def request(self, node_id: str, op: Operation[Ask, Answer], ask: Ask, timeout: float = 5.0) -> Answer:
        """Send ``ask`` to process ``node_id``'s ``op`` and wait for its answer (``RemoteError``
        when it answered with an error, ``Unreachable``/``Unanswered`` when nobody answered)."""
        return await self.requests.request(node_id, op, ask, timeout)

    def _on_node_message(self, raw: dict) -> None:
        message = parse(raw)
        if isinstance(message, Probe):
            self.hearing.heard()
        elif isinstance(message, (Request, Reply)):
            self.requests.on_message(message)
        else:
            log.warning("a %s message on this process's own channel was dropped", message.t)

    # --- loops -------------------------------------------------------------------------------

    async def _subscribed_pubsub(self):
        """A new subscriber connection asked for every channel (Redis confirms each in its own
        message, which the listener reads)."""
        pubsub = self.redis.pubsub()
        self._confirmed = set()
        try:
            await pubsub.subscribe(*self._handlers)
        except BaseException:  # a SUBSCRIBE that reached Redis on a connection nobody reads would count
            with contextlib.suppress(Exception):  # as a listener of this process's channel
                await pubsub.aclose()
            raise
        self._active = set(self._handlers)
        self._changed.clear()
        return pubsub

    def _on_confirmed(self, channel: str) -> None:
        if channel in self._active:
            self._confirmed.add(channel)
            for event in self._waiting.pop(channel, ()):
                event.set()

    async def _listen(self) -> None:
        while True:
            try:
                if self.hearing.deaf.is_set():
                    log.warning("no probe heard for %s s; subscribing again", PROBE_TIMEOUT)
                    await self._reconnect()
                if self._changed.is_set():
                    self._changed.clear()
                    wanted = set(self._handlers)
                    if wanted - self._active:
                        await self._pubsub.subscribe(*(wanted - self._active))
                    if self._active - wanted:
                        self._confirmed -= self._active - wanted
                        await self._pubsub.unsubscribe(*(self._active - wanted))
                    self._active = wanted
                message = await self._pubsub.get_message(timeout=0.05)
                if message is None:
                    continue
                if message.get("type") == "subscribe":
                    self._on_confirmed(message["channel"])
                    continue
                if message.get("type") != "message":
                    continue
                handler = self._handlers.get(message["channel"])
                if handler is not None:
                    try:
                        handler(json_codec.loads(message["data"]))
                    except Exception:
                        log.exception("handler for %s failed", message["channel"])
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                log.warning("Redis subscription lost (%s); reconnecting", exc)
                await self._reconnect()
            except Exception:  # the client library's own state broke (a RuntimeError with no connection):
                # a listener that died here would leave this process deaf while it still publishes
                log.exception("the Redis subscription failed; subscribing again")
                await self._reconnect()

    async def _reconnect(self) -> None:
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        delay = 0.1
        while True:
            try:
                self._pubsub = await self._subscribed_pubsub()
                break
            except Exception as exc:  # Redis still down (or the client library's state broke): again
                log.debug("subscribing again failed: %r", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
        self.hearing.heard()
        log.warning("Redis subscription restored")
        self._resync.soon()
