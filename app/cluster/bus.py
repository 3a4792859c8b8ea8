"""This process's line to Redis: prefixed key and channel names, publishing in order, channel
subscriptions that survive a Redis restart, and request/reply between processes.

Every message is one JSON object. Publishing goes through one queue and one task, so two
messages published by this process arrive everywhere in the order they were published (a
forwarded action's reply never overtakes the views it produced). The subscriber reconnects by
itself and subscribes again to every channel; ``on_reconnect`` callbacks then let the owners of
state that may have missed messages resync it. A subscription can also go quiet with no error
reaching the listener (seen after a Redis restart: publishing worked, nothing arrived for minutes,
so a mirror never caught up): each process publishes a probe to its own channel every second and
subscribes again from scratch when it stops hearing them.

Redis may deliver a message twice: when a connection breaks mid-pipeline, the client library
sends the whole pipeline again once it reconnects, and the PUBLISHes that had already gone out go
out again. Fan-out messages carry versions, so a copy is harmless; a request is handled once per
id (a copy waits for the first one's answer and gets the same reply), so a forwarded action can
never be applied by its first copy and refused as stale by its second."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections import OrderedDict
from typing import Any, Awaitable, Callable

import redis.asyncio as redis
from redis.exceptions import RedisError

from app import json_codec

log = logging.getLogger("asobiba.cluster")

# Answered requests are remembered to answer a copy of one: a copy arrives within the client
# library's reconnect retries (a few seconds). Most replies are a version number; the count bounds
# the memory on a busy process.
REMEMBERED_SECONDS = 30.0
REMEMBERED_ANSWERS = 16384
# Each process hears its own probe on its own channel every PROBE_SECONDS; when none came back for
# PROBE_TIMEOUT seconds, its subscriptions are made again from scratch.
PROBE_SECONDS = 1.0
PROBE_TIMEOUT = 5.0

Handler = Callable[[dict], None]
RequestHandler = Callable[[dict], Awaitable[Any]]


class Unreachable(Exception):
    """No process answered: the addressee is gone, or Redis is."""


class Unanswered(Unreachable):
    """The request reached the addressee but no answer came back (it died, or Redis did, in
    between): what it did with the request is unknown."""


class RemoteError(Exception):
    """The addressee answered with an error (``payload`` is what it sent)."""

    def __init__(self, payload: dict):
        super().__init__(payload.get("message", "remote error"))
        self.payload = payload


class Bus:
    def __init__(self, url: str, prefix: str, node_id: str | None = None):
        self.prefix = prefix
        self.node_id = node_id or secrets.token_hex(6)
        self.redis = redis.Redis.from_url(url, decode_responses=True, socket_connect_timeout=2,
                                          socket_timeout=5, health_check_interval=5)
        self._url = url
        self._handlers: dict[str, Handler] = {}
        self._ops: dict[str, RequestHandler] = {}
        self._pending: dict[str, asyncio.Future] = {}
        self._ids = itertools.count()
        self._answers: OrderedDict[str, tuple[float, asyncio.Future]] = OrderedDict()  # id -> (when, reply)
        self._outbox: asyncio.Queue[tuple[str, str, asyncio.Future | None]] = asyncio.Queue()
        self._pubsub: Any = None  # redis's PubSub once started
        self._changed = asyncio.Event()
        self._waiting: dict[str, list[asyncio.Event]] = {}  # channel -> set once Redis confirms it
        self._confirmed: set[str] = set()  # channels Redis has confirmed on the current connection
        self._tasks: list[asyncio.Task] = []
        self.on_reconnect: list[Callable[[], Awaitable[None]]] = []
        self.published = 0  # messages published since start (benchmarks read it)
        self._heard = 0.0  # when this process last heard its own probe (loop time)
        self._deaf = asyncio.Event()  # set by the probe: the listener subscribes again

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
        self._heard = asyncio.get_running_loop().time()
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._publish_loop()),
                       asyncio.create_task(self._probe_loop())]

    def stop(self) -> None:
        """Stop listening and publishing now (no await: a process's last moments)."""
        for task in self._tasks:
            task.cancel()

    async def close(self) -> None:
        self.stop()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(Unreachable("the bus is closed"))

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
        self._outbox.put_nowait((channel, json_codec.dumps_text(message), None))

    async def publish_now(self, channel: str, message: dict) -> int:
        """Publish after everything queued before it; returns how many subscribers received it."""
        done = asyncio.get_running_loop().create_future()
        self._outbox.put_nowait((channel, json_codec.dumps_text(message), done))
        return await done

    # --- request / reply ---------------------------------------------------------------------

    def serve(self, op: str, handler: RequestHandler) -> None:
        """Answer requests ``op`` sent to this node; ``handler(body)`` returns the reply body or
        raises; an exception with ``as_dict()`` (``ApiError``) is sent back as it is."""
        self._ops[op] = handler

    async def request(self, node_id: str, op: str, body: dict, timeout: float = 5.0) -> Any:
        request_id = f"{self.node_id}.{next(self._ids)}"
        future = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            receivers = await self.publish_now(self.node_channel(node_id), {  # Unanswered if Redis broke
                "t": "request", "id": request_id, "from": self.node_id, "op": op, "body": body})
            if not receivers:
                raise Unreachable(f"process {node_id} is not listening")
            try:
                return await asyncio.wait_for(future, timeout)
            except Unanswered:
                raise
            except Unreachable as exc:  # the reply was lost with Redis
                raise Unanswered(f"process {node_id} got {op} but its answer was lost: {exc}") from None
        except asyncio.TimeoutError:
            raise Unanswered(f"process {node_id} did not answer {op} within {timeout} s") from None
        finally:
            self._pending.pop(request_id, None)

    def _on_node_message(self, message: dict) -> None:
        if message.get("t") == "reply":
            future = self._pending.get(str(message.get("id")))
            if future is not None and not future.done():
                if "error" in message:
                    future.set_exception(RemoteError(message["error"]))
                else:
                    future.set_result(message.get("body"))
        elif message.get("t") == "request":
            asyncio.create_task(self._answer(message))
        elif message.get("t") == "probe":
            self._heard = asyncio.get_running_loop().time()

    async def _answer(self, message: dict) -> None:
        """Handle a request once per id and send its reply (a copy of the request gets it again)."""
        request_id = str(message.get("id"))
        now = time.monotonic()
        remembered = self._answers.get(request_id)
        if remembered is None:
            remembered = self._answers[request_id] = (now, asyncio.ensure_future(self._reply(message)))
            while self._answers and (len(self._answers) > REMEMBERED_ANSWERS
                                     or next(iter(self._answers.values()))[0] < now - REMEMBERED_SECONDS):
                self._answers.popitem(last=False)
        reply = await asyncio.shield(remembered[1])
        self.publish(self.node_channel(message["from"]), reply)

    async def _reply(self, message: dict) -> dict:
        reply = {"t": "reply", "id": message["id"]}
        handler = self._ops.get(str(message.get("op")))
        try:
            if handler is None:
                raise LookupError(f"unknown request {message.get('op')!r}")
            reply["body"] = await handler(message.get("body") or {})
        except Exception as exc:  # the caller gets the error; this process goes on
            as_dict = getattr(exc, "as_dict", None)
            reply["error"] = dict(as_dict(), status=getattr(exc, "status", 503)) if as_dict else {
                "code": "remote_failure", "message": str(exc) or type(exc).__name__, "status": 503}
        return reply

    # --- loops -------------------------------------------------------------------------------

    async def _subscribed_pubsub(self):
        """A new subscriber connection asked for every channel (Redis confirms each in its own
        message, which the listener reads)."""
        pubsub = self.redis.pubsub()
        self._confirmed = set()
        await pubsub.subscribe(*self._handlers)
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
                if self._deaf.is_set():
                    self._deaf.clear()
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

    async def _reconnect(self) -> None:
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        delay = 0.1
        while True:
            try:
                self._pubsub = await self._subscribed_pubsub()
                break
            except (RedisError, OSError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
        self._heard = asyncio.get_running_loop().time()
        self._deaf.clear()
        log.warning("Redis subscription restored")
        for callback in list(self.on_reconnect):
            try:
                await callback()
            except Exception:
                log.exception("resync after a Redis reconnect failed")

    async def _probe_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            if loop.time() - self._heard > PROBE_TIMEOUT and not self._deaf.is_set():
                self._deaf.set()
            try:
                await self.publish_now(self.node_channel(self.node_id), {"t": "probe"})
            except Unreachable:  # Redis is down: the listener notices by itself
                pass

    async def _publish_loop(self) -> None:
        """Everything queued goes out in one pipeline per round (in order): one round trip for a
        burst of messages instead of one each."""
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 256:
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text, _ in batch:
                        pipe.publish(channel, text)
                    results = await pipe.execute()
                self.published += len(batch)
            except (RedisError, OSError) as exc:
                # Fan-out is best effort while Redis is down: subscribers resync when it is back;
                # a request's caller learns that its message was lost.
                log.warning("publishing %d message(s) failed (%s)", len(batch), exc)
                for _, _, done in batch:
                    if done is not None and not done.done():
                        # (the PUBLISH may have reached Redis before the connection broke)
                        done.set_exception(Unanswered(f"Redis is unreachable: {exc}"))
                continue
            for (_, _, done), receivers in zip(batch, results):
                if done is not None and not done.done():
                    done.set_result(receivers)
