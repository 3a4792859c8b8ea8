"""Request and reply between the processes of a cluster, over each process's own channel.

A request is published on the addressee's channel with an id; its reply comes back on the
sender's. Redis may deliver a message twice (the client library sends a whole pipeline again after
a connection broke mid-way): a request is handled once per id, and a copy waits for the first
one's answer and gets the same reply, so a forwarded action can never be applied by its first copy
and refused as stale by its second.

Both ends type the bodies by the request's ``Operation`` (app/cluster/messages.py): the addressee
parses the body into the operation's ``ask`` model (a body that does not fit is refused with
``bad_request``), the sender parses the reply's into its ``answer`` model (``bad_reply``)."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import OrderedDict
from typing import Any, Awaitable, Callable

from pydantic import BaseModel, ValidationError

from app.cluster.messages import Answer, Ask, Failure, Operation, Reply, Request, dump

# Answered requests are remembered to answer a copy of one: a copy arrives within the client
# library's reconnect retries (a few seconds). Most replies are a version number; the count bounds
# the memory on a busy process.
REMEMBERED_SECONDS = 30.0
REMEMBERED_ANSWERS = 16384

RequestHandler = Callable[[Any], Awaitable[BaseModel]]  # (the operation's ask) -> its answer


class Unreachable(Exception):
    """No process answered: the addressee is gone, or Redis is."""


class Unanswered(Unreachable):
    """The request reached the addressee but no answer came back (it died, or Redis did, in
    between): what it did with the request is unknown."""


class RemoteError(Exception):
    """The addressee answered with an error (``failure`` is what it sent)."""

    def __init__(self, failure: Failure):
        super().__init__(failure.message)
        self.failure = failure


class Requests:
    """The request/reply half of a ``Bus`` (which publishes and hears the messages)."""

    def __init__(self, bus):
        self.bus = bus
        self._ops: dict[str, tuple[Operation, RequestHandler]] = {}
        self._pending: dict[str, asyncio.Future] = {}
        self._ids = itertools.count()
        self._answers: OrderedDict[str, tuple[float, asyncio.Future]] = OrderedDict()  # id -> (when, reply)

    def serve(self, op: Operation[Ask, Answer], handler: Callable[[Ask], Awaitable[Answer]]) -> None:
        self._ops[op.name] = (op, handler)

    async def request(self, node_id: str, op: Operation[Ask, Answer], ask: Ask, timeout: float = 5.0) -> Answer:
        request_id = f"{self.bus.node_id}.{next(self._ids)}"
        future: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            receivers = await self.bus.publish_now(self.bus.node_channel(node_id), dump(  # Unanswered if Redis broke
                Request.model_validate({"id": request_id, "from": self.bus.node_id, "op": op.name,
                                        "body": dump(ask)})))
            if not receivers:
                raise Unreachable(f"process {node_id} is not listening")
            try:
                body = await asyncio.wait_for(future, timeout)
            except Unanswered:
                raise
            except Unreachable as exc:  # the reply was lost with Redis
                raise Unanswered(f"process {node_id} got {op.name} but its answer was lost: {exc}") from None
        except asyncio.TimeoutError:
            raise Unanswered(f"process {node_id} did not answer {op.name} within {timeout} s") from None
        finally:
            self._pending.pop(request_id, None)
        try:
            return op.answer.model_validate(body or {})
        except ValidationError as exc:
            raise RemoteError(Failure(code="bad_reply", message=f"{op.name} answered what it may not: {exc}")) from None

    def on_message(self, message: Request | Reply) -> None:
        """A message on this process's channel: a reply to one of its requests, or a request."""
        if isinstance(message, Reply):
            future = self._pending.get(message.id)
            if future is not None and not future.done():
                if message.error is not None:
                    future.set_exception(RemoteError(message.error))
                else:
                    future.set_result(message.body)
        else:
            asyncio.create_task(self._answer(message))

    async def _answer(self, message: Request) -> None:
        """Handle a request once per id and send its reply (a copy of the request gets it again)."""
        now = time.monotonic()
        remembered = self._answers.get(message.id)
        if remembered is None:
            remembered = self._answers[message.id] = (now, asyncio.ensure_future(self._reply(message)))
            while self._answers and (len(self._answers) > REMEMBERED_ANSWERS
                                     or next(iter(self._answers.values()))[0] < now - REMEMBERED_SECONDS):
                self._answers.popitem(last=False)
        reply = await asyncio.shield(remembered[1])
        self.bus.publish(self.bus.node_channel(message.sender), dump(reply))

    async def _reply(self, message: Request) -> Reply:
        served = self._ops.get(message.op)
        if served is None:
            return Reply(id=message.id, error=Failure(code="unknown_request", message=f"unknown request {message.op!r}"))
        op, handler = served
        try:
            ask = op.ask.model_validate(message.body)
        except ValidationError as exc:
            return Reply(id=message.id, error=Failure(code="bad_request", message=f"{op.name}: {exc}", status=400))
        try:
            return Reply(id=message.id, body=dump(await handler(ask)))
        except Exception as exc:  # the caller gets the error; this process goes on
            as_dict = getattr(exc, "as_dict", None)
            error = Failure(**as_dict(), status=getattr(exc, "status", 503)) if as_dict else Failure(
                code="remote_failure", message=str(exc) or type(exc).__name__)
            return Reply(id=message.id, error=error)

    def close(self) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(Unreachable("the bus is closed"))
