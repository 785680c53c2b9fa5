"""The post of a match's news: messages delivered to its targets off the request path.

:class:`Postman` keeps one *lane* per target URL: a bounded first-in first-out line of
messages, so a target gets its news in order. A few sender threads take turns on the lanes
(a lane is served by one of them at a time), so a slow target holds up its own lane only.
A message that fails is tried again after a jittered, doubling wait (2 s, 4 s, 8 s...), and
after :data:`TRIES` tries it is given up with one plain log line that names the match, the
target's place in the match's list and its kind ("Discord"), never its URL: an apprise URL
holds the webhook's secret. The target is then *failing*: its next messages are tried once
each, without a line, until one is taken (one line says so). Nothing waits for the post: a
failing or slow target never holds up, or breaks, a match.

Targets are apprise's (:func:`apprise_target`), with short network timeouts; tests pass their
own ``open_target``.
"""

from __future__ import annotations

import functools
import logging
import random
import threading
import time
import warnings
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from apprise.plugins.base import NotifyBase

log = logging.getLogger("dealerroom.news")

TRIES = 4  # tries of one message before it is given up
FIRST_WAIT = 2.0  # seconds before the second try; each later wait doubles
MOST_WAITING = 500  # messages waiting in all lanes together; beyond, new ones are dropped
SENDERS = 3  # sender threads
CONNECT_SECONDS = 4.0  # at most this long to connect to a target...
READ_SECONDS = 8.0  # ... and to wait for its answer


class Target(Protocol):
    """Somewhere a message can be posted."""

    kind: str  # what it is, for a log line ("Discord", "JSON"): never its address

    def post(self, title: str, body: str) -> bool:
        """Post one message; return whether the target took it (never raise)."""


@dataclass
class Delivery:
    """One message for one target of a match."""

    match_id: str
    position: int  # the target's place in the match's list, from 1
    url: str
    title: str
    body: str
    tries: int = 0


@dataclass
class _Lane:
    """The messages waiting for one target, oldest first."""

    waiting: deque[Delivery] = field(default_factory=deque)
    target: Target | None = None
    not_before: float = 0.0  # monotonic time of the head's next try
    busy: bool = False  # a sender is posting its head now


@functools.cache
def _apprise() -> Any:
    """apprise, with its plugins loaded once and its log kept out of the service's.

    Loading the plugins imports a module the standard library deprecates (a warning, which
    the tests turn into errors). apprise's own lines print a target's full address (a
    webhook's secret), and so do the debug lines of urllib3, its HTTP client (each request's
    path): apprise's are never made, and urllib3's only from errors on (unless the operator
    set its level).
    """
    import apprise  # noqa: PLC0415 - only a match with targets needs it

    quiet = logging.getLogger("apprise")
    quiet.addHandler(logging.NullHandler())
    quiet.propagate = False
    quiet.setLevel(logging.CRITICAL + 1)
    client = logging.getLogger("urllib3")
    if client.level == logging.NOTSET:
        client.setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        apprise.Apprise.instantiate("json://localhost/")
    return apprise


def apprise_plugin(url: str) -> NotifyBase | None:
    """The apprise plugin an URL names (``None``: not an apprise URL apprise can use)."""
    plugin: NotifyBase | None = _apprise().Apprise.instantiate(url, suppress_exceptions=True)
    return plugin


class _AppriseTarget:
    """An apprise URL as a :class:`Target`, with short network timeouts."""

    def __init__(self, plugin: NotifyBase) -> None:
        self.plugin = plugin
        self.kind = str(getattr(plugin, "service_name", "") or "notification")
        for name, most in (
            ("socket_connect_timeout", CONNECT_SECONDS),
            ("socket_read_timeout", READ_SECONDS),
        ):
            value = getattr(plugin, name, None)
            if isinstance(value, int | float):
                setattr(plugin, name, min(float(value), most))

    def post(self, title: str, body: str) -> bool:
        apprise = _apprise()
        try:
            return bool(
                self.plugin.notify(
                    body=body,
                    title=title,
                    notify_type=apprise.NotifyType.INFO,
                    body_format=apprise.NotifyFormat.TEXT,
                )
            )
        except Exception:  # noqa: BLE001 - a plugin's failure is a failed post, retried
            return False


class _Unusable:
    """A target apprise no longer accepts (it did when the host gave it)."""

    kind = "notification"

    def post(self, title: str, body: str) -> bool:
        del title, body
        return False


def apprise_target(url: str) -> Target:
    """The apprise target of ``url``."""
    plugin = apprise_plugin(url)
    return _Unusable() if plugin is None else _AppriseTarget(plugin)


class Postman:
    """Delivers messages to targets in sender threads, in order per target, with retries."""

    def __init__(
        self,
        open_target: Callable[[str], Target] = apprise_target,
        *,
        senders: int = SENDERS,
        tries: int = TRIES,
        first_wait: float = FIRST_WAIT,
        most_waiting: int = MOST_WAITING,
    ) -> None:
        """A postman opening targets with ``open_target``; its threads start on the first post."""
        self.open_target = open_target
        self.senders = senders
        self.tries = tries
        self.first_wait = first_wait
        self.most_waiting = most_waiting
        self._lanes: dict[str, _Lane] = {}
        self._failing: set[str] = set()  # targets given up on (see _settle)
        self._waiting = 0
        self._change = threading.Condition()
        self._stopped = False
        self._threads: list[threading.Thread] = []

    def post(self, deliveries: Iterable[Delivery]) -> None:
        """Queue messages; a message beyond :data:`MOST_WAITING` waiting is dropped (logged)."""
        with self._change:
            if self._stopped:
                return
            for delivery in deliveries:
                if self._waiting >= self.most_waiting:
                    log.warning(
                        "news of match %s: too many messages waiting; one for target %d dropped",
                        delivery.match_id,
                        delivery.position,
                    )
                    continue
                self._lanes.setdefault(delivery.url, _Lane()).waiting.append(delivery)
                self._waiting += 1
            self._start()
            self._change.notify_all()

    def stop(self) -> None:
        """Stop: the senders end after the post under way; what waits is dropped."""
        with self._change:
            self._stopped = True
            self._lanes.clear()
            self._waiting = 0
            self._change.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing waits or is being posted; return whether it came in time."""
        give_up = time.monotonic() + timeout
        with self._change:
            while self._waiting:
                left = give_up - time.monotonic()
                if left <= 0:
                    return False
                self._change.wait(left)
        return True

    # ------------------------------------------------------------------ the senders

    def _start(self) -> None:
        """Start the sender threads once (called holding the lock)."""
        if self._threads:
            return
        for number in range(self.senders):
            thread = threading.Thread(
                target=self._serve, name=f"dealerroom-news-{number + 1}", daemon=True
            )
            self._threads.append(thread)
            thread.start()

    def _next(self) -> tuple[str, _Lane] | None:
        """Take a lane whose head is due (called holding the lock); ``None``: stopped."""
        while not self._stopped:
            now = time.monotonic()
            soonest: float | None = None
            for url, lane in self._lanes.items():
                if lane.busy or not lane.waiting:
                    continue
                if lane.not_before <= now:
                    lane.busy = True
                    return url, lane
                soonest = lane.not_before if soonest is None else min(soonest, lane.not_before)
            self._change.wait(None if soonest is None else soonest - now)
        return None

    def _serve(self) -> None:
        while True:
            with self._change:
                taken = self._next()
            if taken is None:
                return
            url, lane = taken
            delivery = lane.waiting[0]
            try:
                if lane.target is None:
                    lane.target = self.open_target(url)
                posted = lane.target.post(delivery.title, delivery.body)
            except Exception:  # noqa: BLE001 - a target's failure is a failed post, retried
                posted = False
            self._after(url, lane, delivery, posted=posted)

    def _after(self, url: str, lane: _Lane, delivery: Delivery, *, posted: bool) -> None:
        """Settle a post: the next message, a later try, or a message given up."""
        with self._change:
            lane.busy = False
            if self._stopped:
                return
            delivery.tries += 1
            failing = url in self._failing
            if posted or failing or delivery.tries >= self.tries:
                self._settle(url, lane, delivery, posted=posted, failing=failing)
                lane.waiting.popleft()
                self._waiting -= 1
                lane.not_before = 0.0
                if not lane.waiting:
                    del self._lanes[url]
            else:
                wait = self.first_wait * 2 ** (delivery.tries - 1)
                lane.not_before = time.monotonic() + random.uniform(wait / 2, wait)  # noqa: S311
            self._change.notify_all()

    def _settle(
        self, url: str, lane: _Lane, delivery: Delivery, *, posted: bool, failing: bool
    ) -> None:
        """Note a message posted or given up: one log line when a target fails, or is back.

        A target given up on is *failing*: its next messages are tried once each (a target
        that is down costs one try a message, not a backlog of retries) until one is posted.
        """
        kind = lane.target.kind if lane.target is not None else "notification"
        where = (delivery.match_id, delivery.position, kind)
        if posted and failing:
            self._failing.discard(url)
            log.info("news of match %s: target %d (%s) takes messages again", *where)
        elif not posted and not failing:
            if len(self._failing) >= self.most_waiting:
                self._failing.clear()  # a bound on what is remembered: they retry in full
            self._failing.add(url)
            log.warning(
                "news of match %s: target %d (%s) failed %d times; a message was dropped, "
                "and the next ones are tried once each until it takes one",
                *where,
                delivery.tries,
            )


__all__ = ["Delivery", "Postman", "Target", "apprise_plugin", "apprise_target"]
