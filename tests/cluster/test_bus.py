"""The Redis bus between processes: ordered fan-out, request/reply, and a Redis restart."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel

from app.cluster.bus import PROBE_TIMEOUT, RemoteError, Unreachable
from app.cluster.messages import Failure, Operation
from app.errors import ApiError
from tests.cluster.helpers import started_buses, until
from tests.support.redis import PrivateRedis, random_prefix


class Number(BaseModel):
    n: int


class Version(BaseModel):
    version: int


DOUBLE = Operation("double", Number, Number)
UNSERVED = Operation("no-such-op", Number, Number)
APPLY = Operation("apply", Number, Version)
ECHO = Operation("echo", Number, Number)


def test_messages_arrive_in_order_and_only_on_subscribed_channels(redis_prefix):
    async def scenario():
        async with started_buses(redis_prefix) as (a, b), started_buses(random_prefix(), 1) as (other,):
            got, stray = [], []
            b.subscribe(b.key("room", "r1"), got.append)
            other.subscribe(other.key("room", "r1"), stray.append)  # another cluster on the same Redis
            await asyncio.sleep(0.2)
            for i in range(200):
                a.publish(a.key("room", "r1"), {"i": i})
            await until(lambda: len(got) == 200)
            assert [m["i"] for m in got] == list(range(200))
            assert stray == []
            b.unsubscribe(b.key("room", "r1"))
            await asyncio.sleep(0.2)
            assert await a.publish_now(a.key("room", "r1"), {"i": -1}) == 0

    asyncio.run(scenario())


def test_request_reply_errors_and_absent_nodes(redis_prefix):
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            async def double(ask: Number) -> Number:
                if ask.n < 0:
                    raise ApiError(409, "stale_version", "negative")
                return Number(n=ask.n * 2)

            b.serve(DOUBLE, double)
            assert await a.request(b.node_id, DOUBLE, Number(n=21)) == Number(n=42)
            replies = await asyncio.gather(*(a.request(b.node_id, DOUBLE, Number(n=i)) for i in range(50)))
            assert [r.n for r in replies] == [2 * i for i in range(50)]
            with pytest.raises(RemoteError) as refused:
                await a.request(b.node_id, DOUBLE, Number(n=-1))
            assert refused.value.failure == Failure(code="stale_version", message="negative", status=409)
            with pytest.raises(RemoteError):
                await a.request(b.node_id, UNSERVED, Number(n=1))
            with pytest.raises(Unreachable):  # nobody listens: refused at once, no timeout
                await asyncio.wait_for(a.request("gone", DOUBLE, Number(n=1), timeout=30), 2)
            await b.close()
            with pytest.raises(Unreachable):
                await a.request(b.node_id, DOUBLE, Number(n=1))

    asyncio.run(scenario())


def test_a_body_that_does_not_fit_its_operation_is_refused_at_either_end(redis_prefix):
    """The addressee parses a request's body into the operation's ``ask`` model and the sender
    parses the reply's into its ``answer`` model: neither handler ever sees a body that does not fit."""
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            seen = []

            async def double(ask: Number) -> Number:
                seen.append(ask)
                return Number(n=ask.n * 2)

            b.serve(DOUBLE, double)
            b.serve(Operation("versioned", Number, Number), double)
            with pytest.raises(RemoteError) as refused:  # b answers a Number where a Version is wanted
                await a.request(b.node_id, Operation("versioned", Number, Version), Number(n=1))
            assert refused.value.failure.code == "bad_reply"
            assert seen == [Number(n=1)]
            replies = []  # (a's own replies come here from now on, not to its requests)
            await a.subscribe(a.node_channel(a.node_id),
                              lambda m: replies.append(m) if m.get("t") == "reply" else None).wait()
            await a.publish_now(b.node_channel(b.node_id), {"t": "request", "id": "bad-1", "from": a.node_id,
                                                            "op": "double", "body": {"n": "many"}})
            await until(lambda: replies)
            assert replies[0]["error"]["code"] == "bad_request" and replies[0]["error"]["status"] == 400
            assert seen == [Number(n=1)]  # the handler never saw the body that did not fit

    asyncio.run(scenario())


def test_a_request_delivered_twice_is_handled_once_and_both_copies_get_its_answer(redis_prefix):
    """Redis can deliver a PUBLISH twice (the client library sends a whole pipeline again when a
    connection broke mid-way). A forwarded action handled twice would be applied by the first
    copy and refused as stale by the second, and the second answer could be the one heard."""
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            calls = []

            async def apply_once(ask: Number) -> Version:
                calls.append(ask.n)
                await asyncio.sleep(0.1)  # still working when the copy arrives
                if len(calls) > 1:
                    raise ApiError(409, "stale_version", "already applied")
                return Version(version=7)

            b.serve(APPLY, apply_once)
            replies = []
            # The node channel also carries the bus's own liveness probe (once a second): keep replies.
            a.subscribe(a.node_channel(a.node_id), lambda m: replies.append(m) if m.get("t") == "reply" else None)
            await asyncio.sleep(0.2)
            request = {"t": "request", "id": "copied-1", "from": a.node_id, "op": "apply", "body": {"n": 1}}
            for _ in range(2):
                await a.publish_now(b.node_channel(b.node_id), request)
            await until(lambda: len(replies) == 2)
            await asyncio.sleep(0.2)
            assert calls == [1]
            assert replies == [{"t": "reply", "id": "copied-1", "body": {"version": 7}}] * 2

    asyncio.run(scenario())


def test_a_subscription_that_goes_quiet_without_an_error_is_made_again(redis_prefix):
    """Redis forgets this process's subscriptions and the listener hears no error (as after one
    Redis restart in CI: publishing worked, nothing arrived for minutes). Its own probe stops
    coming back, so it subscribes again and tells its owners to resync (``on_reconnect``)."""
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            got, resynced = [], []

            async def resync():
                resynced.append(True)

            a.on_reconnect.append(resync)
            await a.subscribe(a.key("room", "r1"), got.append).wait()
            await a._pubsub.unsubscribe()  # behind the listener's back: nothing arrives any more
            await asyncio.sleep(0.5)
            assert await b.publish_now(b.key("room", "r1"), {"i": 0}) == 0
            await until(lambda: resynced, timeout=PROBE_TIMEOUT + 5)
            assert await b.publish_now(b.key("room", "r1"), {"i": 1}) == 1
            await until(lambda: got == [{"i": 1}])

    asyncio.run(scenario())


def test_the_listener_survives_an_error_that_is_not_redis_s(redis_prefix):
    """The listener's subscriber connection dropped behind its back (redis-py then raises a
    RuntimeError, not a Redis error): the listener must not die silently (a process that hears
    nothing while it still publishes: its asks go unanswered for ever). It starts over."""
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            got = []
            await a.subscribe(a.key("room", "r1"), got.append).wait()
            lost = a._pubsub
            lost.connection = None  # redis-py lost it: its next get_message raises RuntimeError
            await until(lambda: a._pubsub is not lost and a.key("room", "r1") in a._confirmed,
                        timeout=PROBE_TIMEOUT + 5)
            b.publish(b.key("room", "r1"), {"i": 1})
            await until(lambda: got == [{"i": 1}])
            assert not any(task.done() for task in a._tasks)

    asyncio.run(scenario())


def test_a_resync_after_a_reconnect_can_ask_another_process(redis_prefix):
    """What a process does after its subscriptions came back (a mirror asks the owner for its
    current views) may wait for a reply, which only the listener can deliver: the listener must not
    be waiting for that resync. (It was: every mirror's ask after a Redis restart timed out.)"""
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            answers: list = []

            async def echo(ask: Number) -> Number:
                return ask

            async def ask_the_other():
                try:
                    answers.append(await a.request(b.node_id, ECHO, Number(n=7), timeout=2))
                except Unreachable as exc:
                    answers.append(exc)

            b.serve(ECHO, echo)
            a.on_reconnect.append(ask_the_other)
            await a._pubsub.unsubscribe()  # the listener hears nothing more: its probe makes it subscribe again
            await until(lambda: answers, timeout=PROBE_TIMEOUT + 5)
            assert answers == [Number(n=7)]

    asyncio.run(scenario())


def test_subscriptions_come_back_after_a_redis_restart(tmp_path):
    server = PrivateRedis(tmp_path)
    server.start()

    async def scenario():
        async with started_buses(random_prefix(), url=server.url) as (a, b):
            got, reconnected = [], []

            async def on_reconnect():
                reconnected.append(True)

            async def echo(ask: Number) -> Number:
                return ask

            b.on_reconnect.append(on_reconnect)
            b.serve(ECHO, echo)
            b.subscribe(b.key("room", "r"), got.append)
            await asyncio.sleep(0.2)
            a.publish(a.key("room", "r"), {"n": 1})
            await until(lambda: len(got) == 1)
            server.stop()
            a.publish(a.key("room", "r"), {"n": 2})  # lost: Redis is down
            await asyncio.sleep(0.5)
            server.start()
            await until(lambda: reconnected, timeout=10)
            await asyncio.sleep(0.3)
            assert await a.request(b.node_id, ECHO, Number(n=1)) == Number(n=1)  # both node channels are back
            a.publish(a.key("room", "r"), {"n": 3})
            await until(lambda: [m["n"] for m in got] == [1, 3])

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_subscription_is_ready_once_redis_confirmed_it(redis_prefix):
    """``subscribe``'s event means Redis delivers what is published from then on (a process reads
    state after it, and must hear every later change of that state)."""
    async def scenario():
        async with started_buses(redis_prefix) as (a, b):
            got = []
            channel = b.key("room", "r2")
            ready = b.subscribe(channel, got.append)
            await asyncio.wait_for(ready.wait(), 5)
            assert await a.publish_now(channel, {"i": 1}) == 1
            assert b.subscribe(channel, got.append).is_set()  # already confirmed: ready at once
            await until(lambda: got == [{"i": 1}])

    asyncio.run(scenario())
