"""Sending pushes without ever blocking the event loop: events go into a bounded queue (``notify``
never waits; past ``PUSH_QUEUE`` an event is dropped and counted), a few tasks (``PUSH_WORKERS``)
take them, read the player's choices and subscriptions in the database's worker threads, and post
each push on a sender thread of their own: pywebpush signs (VAPID, ES256) and encrypts
(aes128gcm, RFC 8291), the guarded session (``guard``) posts only to public https addresses.

The subscriber chooses the endpoints, so how long their posts take (app/push/fair.py): each
player's events wait in their own queue and players are served in turn, one turn being at most
``POSTS_PER_TURN`` posts of one event at once (the rest of it waits for the player's next turn);
each player's posts may take ``PUSH_BUDGET_PER_PLAYER`` of sender time, past it their pushes are
dropped (``over_budget``); the endpoint's host is looked up in at most ``RESOLVE_SECONDS``.

Who calls ``notify`` decides "once per event": the process that runs a match (the cluster's owner,
never a mirror: the hook is in ``MatchRunner``), and for a chat mention the process that stored
the message. Each player's pushes are throttled (``RATE_NOTIFY_PER_PLAYER``, through the shared
rate-limit store in a cluster), and a subscription the push service calls gone (404, 410) is deleted."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import requests
from py_vapid import Vapid

from app.correspondence import reminders
from app.limits.store import Rule
from app.observability import metrics
from app.push import keys, store
from app.push.fair import FairQueue, SenderBudget
from app.push.guard import EndpointRefused, ResolveTimeout, Resolver, SessionPerThread, check_endpoint
from app.push.texts import Event, payload
from app.settings import Settings

log = logging.getLogger("asobiba.push")

TTL_SECONDS = 24 * 3600  # a push waits this long for a browser that is offline
# Threads that resolve the host of an endpoint a browser subscribes with (``check``).
RESOLVER_THREADS = 4
RESOLVE_SECONDS = 2.0  # a post's look-up of its endpoint's host waits this long at most
# One turn of a player's (app/push/fair.py): this many posts of one event at once, each on a sender
# thread of its own (``PUSH_WORKERS`` tasks, so that many times this many threads).
POSTS_PER_TURN = 2
# A full queue drops each notification (counted: ``asobiba_pushes_total{result="dropped"}``); the log says so
# at most this often, with the count, not once per dropped event (thousands at a busy moment).
DROPPED_WARNING_SECONDS = 60.0


@dataclass
class _Job:
    """One player's event being delivered: its subscriptions not yet posted to (None: not read yet)."""
    event: Event
    targets: list[store.Target] | None = None


class Notifier:
    def __init__(self, settings: Settings, db, limiter):
        self.settings = settings
        self.db = db
        self.limiter = limiter
        self.rule = Rule.parse(settings.rate_notify_per_player)
        budget = Rule.parse(settings.push_budget_per_player)
        self.budget = SenderBudget(budget) if budget is not None else None
        self.vapid: Vapid | None = None
        self.public_key = ""
        self.queue: FairQueue | None = None
        self._tasks: list[asyncio.Task] = []
        self._threads = ThreadPoolExecutor(max_workers=settings.push_workers * POSTS_PER_TURN,
                                           thread_name_prefix="push")
        # A post's look-up of its host: bounded in time, in threads of its own (guard.Resolver).
        self._post_resolver = Resolver(RESOLVE_SECONDS)
        self._sessions = SessionPerThread(settings.push_allow_loopback_http, self._post_resolver)
        # The subscriber chooses the endpoint's host, so its DNS server: a lookup that hangs holds
        # one of these threads, never the event loop's default executor (the readiness probe, the
        # hub's writes) nor the senders.
        self._resolvers = ThreadPoolExecutor(max_workers=RESOLVER_THREADS, thread_name_prefix="push-dns")
        self.busy = 0  # turns being served now (tests wait for the queue to settle)
        # One player's events are delivered one turn at a time, in the order they were queued (the
        # fair queue serves a player again only once their turn is done): with several tasks, a
        # later event could otherwise take the player's last throttle credit (or arrive on the
        # phone) before an earlier one. Other players' go on in parallel.
        self._rooms: dict = {}  # the hub's live rooms (the matches run here)
        self._dropped = 0  # notifications dropped since the last warning said so
        self._dropped_said_at = float("-inf")
        self._last_dropped: Event | None = None
        self._dropped_timer: asyncio.TimerHandle | None = None  # says the drops when the minute is over
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop that ``notify`` runs on

    async def start(self, rooms: dict | None = None) -> None:
        """Load (or make and store) the VAPID key, start the sender tasks, and listen for the
        correspondence deadlines' "12 hours left" of the matches run here (``rooms``: the hub's)."""
        self.vapid = await self.db.run(keys.load_or_create, self.settings.vapid_private_key)
        self.public_key = keys.public_key_b64(self.vapid)
        self.queue = FairQueue(self.settings.push_queue)
        self._loop = asyncio.get_running_loop()
        self._tasks = [asyncio.create_task(self._work()) for _ in range(self.settings.push_workers)]
        self._rooms = rooms if rooms is not None else {}
        reminders.TWELVE_HOURS_LEFT.append(self._hours_left)

    async def check(self, endpoint: str) -> None:
        """The endpoint's URL and every address of its host (``EndpointRefused``), in the resolver
        threads. A caller that stops waiting (a timeout) cancels a lookup that has not begun."""
        allow = self.settings.push_allow_loopback_http
        await asyncio.get_running_loop().run_in_executor(self._resolvers, check_endpoint, endpoint, allow)

    def stop(self) -> None:
        self._say_dropped()  # (drops not yet said)
        self.queue = None  # nothing more is queued (nor dropped, nor said)
        if self._hours_left in reminders.TWELVE_HOURS_LEFT:
            reminders.TWELVE_HOURS_LEFT.remove(self._hours_left)
        for task in self._tasks:
            task.cancel()
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._resolvers.shutdown(wait=False, cancel_futures=True)
        self._post_resolver.close()

    def _hours_left(self, reminder: reminders.Reminder) -> None:
        """The hook of app/correspondence/reminders.py: called once per deadline, by the process
        that runs the match. The hook list is the process's; only the app whose hub runs that
        match sends (tests run several apps in one process)."""
        live = self._rooms.get(reminder.room_id)
        match = live.runner if live is not None else None
        if live is None or match is None or match.events is None or match.match_id != reminder.match_id:
            return
        if reminder.player_id and reminder.seat not in live.bot_seats:
            self.notify([reminder.player_id], Event("hours_left", reminder.room_id, reminder.game))

    @property
    def idle(self) -> bool:
        return (self.queue is None or self.queue.empty()) and self.busy == 0

    def notify(self, player_ids: Iterable[str], event: Event) -> None:
        """Queue ``event`` for each player; never waits (called on the apply path). A full queue
        drops the newest event of the longest backlog (this one if its player's is the longest)."""
        if self.queue is None:
            return
        for player_id in player_ids:
            try:
                dropped = self.queue.put_nowait((player_id, _Job(event)))
            except asyncio.QueueFull:
                self._dropped_one(event)
                continue
            if dropped is not None:
                self._dropped_one(dropped[1].event)

    def _dropped_one(self, event: Event) -> None:
        """Count a dropped notification (the metric: every one), and say it in the log at most once
        a minute: at once after a quiet minute, else when the minute is over (so the last drops of
        a busy moment are said too, not only when the next one comes)."""
        metrics.push("dropped")
        self._dropped += 1
        self._last_dropped = event
        wait = self._dropped_said_at + DROPPED_WARNING_SECONDS - time.monotonic()
        if wait <= 0 or self._loop is None:
            self._say_dropped()
        elif self._dropped_timer is None:
            self._dropped_timer = self._loop.call_later(wait, self._say_dropped)

    def _say_dropped(self) -> None:
        if self._dropped_timer is not None:
            self._dropped_timer.cancel()
            self._dropped_timer = None
        if self._dropped and self._last_dropped is not None:
            log.warning("push queue full: %d notifications dropped (the last a %s) since the last warning",
                        self._dropped, self._last_dropped.kind, extra={"room_id": self._last_dropped.room_id})
            self._dropped, self._dropped_said_at = 0, time.monotonic()

    async def _work(self) -> None:
        queue = self.queue
        assert queue is not None, "started"
        while True:
            player_id, job = await queue.get()
            self.busy += 1
            try:
                await self._turn(queue, player_id, job)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a %s push failed", job.event.kind, extra={"room_id": job.event.room_id})
            finally:
                self.busy -= 1
                queue.done(player_id)

    async def _turn(self, queue: FairQueue, player_id: str, job: _Job) -> None:
        """One turn of ``player_id``'s: at most ``POSTS_PER_TURN`` posts of the event at once; what
        is left of it goes back to the head of the player's queue, for their next turn."""
        event = job.event
        if job.targets is None:
            targets = await self.db.run(store.targets, player_id, event.kind)
            if not targets:
                return
            if self.rule is not None:
                wait = await self.limiter.store.take(f"notify:player:{player_id}", self.rule, 1.0, self.limiter.clock.now())
                if wait > 0:
                    metrics.push("throttled")
                    return
            job.targets = targets
        if self.budget is not None and not self.budget.allows(player_id):
            for _ in job.targets:
                metrics.push("over_budget")
            log.info("pushes of a player past their sender time dropped", extra={"room_id": event.room_id})
            return
        batch, job.targets = job.targets[:POSTS_PER_TURN], job.targets[POSTS_PER_TURN:]
        loop = asyncio.get_running_loop()
        done = await asyncio.gather(*(loop.run_in_executor(self._threads, self._post, target, event) for target in batch))
        for target, (result, seconds) in zip(batch, done):
            metrics.push(result)
            if self.budget is not None:
                self.budget.charge(player_id, seconds)
            if result == "gone":
                await self.db.run(store.forget, target.id)
        if job.targets:
            queue.put_front(player_id, job)

    def _post(self, target: store.Target, event: Event) -> tuple[str, float]:
        """One push (in a sender thread): ``sent``, ``gone``, ``refused`` or ``failed``, and the
        seconds it took."""
        started = time.monotonic()
        result = self._post_one(target, event)
        return result, time.monotonic() - started

    def _post_one(self, target: store.Target, event: Event) -> str:
        allow = self.settings.push_allow_loopback_http
        try:
            self._post_resolver.check(target.endpoint, allow)
        except ResolveTimeout as exc:
            log.warning("push not sent: %s", exc, extra={"room_id": event.room_id})
            return "failed"
        except EndpointRefused as exc:
            log.warning("push not sent: %s", exc, extra={"room_id": event.room_id})
            return "refused"
        data = json.dumps(payload(event, target.lang), ensure_ascii=False).encode()
        # Imported at the first push, in this sender thread: pywebpush brings aiohttp and its TLS set-up
        # (about a second of CPU), which every server start paid although most servers never push.
        from pywebpush import WebPushException, webpush

        try:
            webpush({"endpoint": target.endpoint, "keys": {"p256dh": target.p256dh, "auth": target.auth}},
                    data=data, vapid_private_key=self.vapid, vapid_claims={"sub": self.settings.vapid_subject},
                    ttl=TTL_SECONDS, headers={"Topic": event.topic, "Urgency": "normal"},
                    timeout=self.settings.push_timeout, requests_session=self._sessions.session)
            return "sent"
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in (404, 410):
                return "gone"
            log.warning("push refused by the push service (%s)", status, extra={"room_id": event.room_id})
            return "failed"
        except (requests.RequestException, ValueError, OSError) as exc:
            log.warning("push not delivered: %s", type(exc).__name__, extra={"room_id": event.room_id})
            return "failed"
