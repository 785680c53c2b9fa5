"""News where players are: a match's moments posted to the host's chat, off the request path.

A host may give a match up to :data:`MOST_TARGETS` notification targets (``"notify"`` when
creating it: apprise URLs such as a Discord or Slack webhook, a Matrix room, an email
address). They are private to the host (:mod:`service.notify_targets` keeps them sealed),
checked here with apprise's own URL check (:func:`check_targets`), and never shown again.

The news follows the match's **public records** only, so it cannot tell anything sealed.
:func:`compose` turns records into messages, in plain words and the games' own
presentations (:mod:`web.games`):

* a new match (who plays what, and where to follow it);
* a step opens, with its deadline ("closes in 5 minutes, at 20:05 UTC on 2026-11-21");
* everyone asked has submitted (their picks stay sealed);
* a decision waits on someone (who, what, and the default if they do not decide in time);
* a step resolves: its account (:func:`web.pictures.account`) and a link to its picture,
  the public match page at that record (``<public URL>/matches/<id>?at=<seq>``);
* the match ends: the result in words (or the host's reason for ending it early).

:class:`News` is the follower: a daemon thread that, every second, reads the new records of
each match that has targets, composes their messages and hands them to the
:class:`~web.news_post.Postman`, which posts them in its own threads, retried and never
waited for. Like the deadline ticker, one worker of an instance follows: the first to take
the lock file ``<instance>/news.lock`` (the others wait for it, and take over when that
worker ends), so a target gets its news in order. Several instances over one store still
tell each record once (:meth:`service.notify_targets.NotifyTargets.advance`).

Settings (``app.config``, from the environment): ``DEALERROOM_PUBLIC_URL``, the address the
links in messages start with (default ``http://localhost:5000``), and
``DEALERROOM_NOTIFY_LOCAL``, which allows targets on loopback, private or link-local
addresses (default off: a host could otherwise make the service post into its own network).
"""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import logging
import os
import re
import socket
import threading
from dataclasses import dataclass
from datetime import UTC
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit

from flask import current_app
from werkzeug.exceptions import BadRequest

from domain.public_log import PublicLog
from domain.records import parse_time
from domain.vocabulary import StepStatus
from service.config import ConfigError
from web import games
from web.games.record import game_of
from web.news_post import Delivery, Postman, apprise_plugin
from web.pictures import account

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from flask import Flask

    from domain.public_log import PublicStep
    from service.application import DealerRoom
    from service.bootstrap import Services
    from service.notify_targets import NotifyTargets

log = logging.getLogger("dealerroom.news")

MOST_TARGETS = 5
LONGEST_URL = 500
DEFAULT_PUBLIC_URL = "http://localhost:5000"
EXTENSION = "dealerroom.news"
LOCK_FILE = "news.lock"  # in the instance folder: one follower per instance
# apprise plugins that post on this machine, not to anyone's chat
_LOCAL_PLUGINS = frozenset({"dbus", "glib", "gnome", "macosx", "windows", "syslog", "blink1"})
_EXAMPLE = "such as discord://webhook_id/webhook_token or mailto://user:password@example.com"


# ---------------------------------------------------------------------------
# The targets a host gives
# ---------------------------------------------------------------------------


def _local_host(host: str) -> bool:
    """Whether ``host`` names this machine or a private network (an address or localhost)."""
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    address: ipaddress.IPv4Address | ipaddress.IPv6Address | None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = _legacy_ipv4(host)
    return address is not None and not address.is_global


def _legacy_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The address a resolver reads in ``127.1``, ``2130706433`` or ``0x7f000001``, if any.

    A bare number names an address only from 2**24 on (or 0): below, it is more likely an
    id (apprise URLs put ids where hosts go), and 0.x.y.z reaches nothing anyway.
    """
    if host.isdigit():
        value = int(host)
        return ipaddress.IPv4Address(value) if value == 0 or 2**24 <= value < 2**32 else None
    if not re.fullmatch(r"[0-9a-fx.]{1,40}", host) or not ("." in host or "0x" in host):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def check_targets(value: Any, *, allow_local: bool = False) -> list[str]:
    """The notification targets of a new match, from the create request's ``"notify"``.

    ``None`` is no targets; otherwise a list of at most :data:`MOST_TARGETS` apprise URLs,
    each at most :data:`LONGEST_URL` characters, that apprise can use (a repeated URL counts
    once). Targets on this machine or a private network are refused unless ``allow_local``.
    The messages never repeat a URL: it holds the webhook's secret.

    :raises BadRequest: saying what is wrong and which URL (by its place in the list).
    """
    if value is None:
        return []
    if not isinstance(value, list):
        msg = f"'notify' must be a list of apprise URLs ({_EXAMPLE}), at most {MOST_TARGETS}"
        raise BadRequest(msg)
    if len(value) > MOST_TARGETS:
        msg = f"'notify' takes at most {MOST_TARGETS} URLs; it has {len(value)}"
        raise BadRequest(msg)
    targets: list[str] = []
    for place, given in enumerate(value, start=1):
        which = f"notify URL {place}"
        if not isinstance(given, str) or not given.strip():
            msg = f"{which} must be an apprise URL ({_EXAMPLE})"
            raise BadRequest(msg)
        url = given.strip()
        if len(url) > LONGEST_URL:
            msg = f"{which} is longer than {LONGEST_URL} characters"
            raise BadRequest(msg)
        plugin = apprise_plugin(url)
        if plugin is None:
            msg = f"{which} is not an apprise URL this service can use ({_EXAMPLE})"
            raise BadRequest(msg)
        module = type(plugin).__module__.rsplit(".", 1)[-1]
        host = str(getattr(plugin, "host", "") or "")
        if not allow_local and (module in _LOCAL_PLUGINS or _local_host(host)):
            msg = (
                f"{which} points at this machine or a private network; give a public "
                "chat, webhook or mail address"
            )
            raise BadRequest(msg)
        if url not in targets:
            targets.append(url)
    return targets


# ---------------------------------------------------------------------------
# The messages
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """One piece of news: a title and a plain-text body."""

    kind: str  # "created", "opened", "submitted", "decision", "resolved", "ended"
    title: str
    body: str


def _names(items: Sequence[Any]) -> str:
    """Names as people write them: "ana", "ana and ben", "ana, ben and cai"."""
    shown = [str(i) for i in items]
    if not shown:
        return "nobody"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _plural(count: int, unit: str) -> str:
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


def duration_words(seconds: float) -> str:
    """A length of time in its two largest units: "5 minutes", "1 hour 30 minutes".

    >>> duration_words(300), duration_words(30), duration_words(5400), duration_words(86400)
    ('5 minutes', '30 seconds', '1 hour 30 minutes', '1 day')
    """
    left = max(round(seconds), 0)
    parts = []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        count, left = divmod(left, size)
        if count:
            parts.append(_plural(count, unit))
    return " ".join(parts[:2]) or "0 seconds"


def moment_words(at: str) -> str:
    """An RFC 3339 time in UTC, for readers anywhere: "20:05 UTC on 2026-11-21".

    >>> moment_words("2026-11-21T20:05:00.000000Z"), moment_words("2026-11-21T20:05:30Z")
    ('20:05 UTC on 2026-11-21', '20:05:30 UTC on 2026-11-21')
    """
    moment = parse_time(at).astimezone(UTC)
    clock = moment.strftime("%H:%M:%S" if moment.second else "%H:%M")
    return f"{clock} UTC on {moment.date().isoformat()}"


def deadline_words(opened_at: Any, deadline: Any) -> str:
    """When a deadline falls, counted from the record that set it.

    >>> deadline_words("2026-11-21T20:00:00.000000Z", "2026-11-21T20:05:00.000000Z")
    'in 5 minutes, at 20:05 UTC on 2026-11-21'
    """
    if not isinstance(deadline, str):
        return ""
    try:
        moment = moment_words(deadline)
        left = (parse_time(deadline) - parse_time(str(opened_at))).total_seconds()
    except (TypeError, ValueError):
        return f"at {deadline}"
    return f"in {duration_words(left)}, at {moment}"


@dataclass(frozen=True)
class _Match:
    """What every message of a match says: its label, players and links."""

    match_id: str
    game: str
    players: list[str]
    label: str
    page: str  # the public match page
    auto_seal: bool = False  # the match seals a step once everyone has submitted

    def title(self, text: str) -> str:
        return f"{self.label}: {text}"

    def at(self, seq: int) -> str:
        return f"{self.page}?at={seq}"


def _match(match_id: str, records: Sequence[Mapping[str, Any]], public_url: str) -> _Match:
    game, players = game_of(records)
    data = records[0].get("data") or {}
    shown = games.display_name(game, data.get("options"))
    name = data.get("name")
    label = f"{name.strip()} ({shown})" if isinstance(name, str) and name.strip() else shown
    settings = data.get("settings")
    auto_seal = isinstance(settings, dict) and settings.get("auto_seal") is True
    page = f"{public_url}/matches/{match_id}"
    return _Match(match_id, game, players, label, page, auto_seal=auto_seal)


def _created(m: _Match) -> Message:
    return Message(
        "created",
        m.title("a new match"),
        f"{_names(m.players)} play {m.label}. Follow the match, step by step, at {m.page}",
    )


def _opened(m: _Match, step: PublicStep, record: Mapping[str, Any], seq: int) -> Message:
    shown = games.presentation(m.game)
    try:  # "round 2, turn 1 of 10 under way"
        where = shown.progress(step.view_at_open, True)  # noqa: FBT003 - its interface
        where = where.removesuffix(" under way")
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        where = ""
    where = f" ({where})" if where else ""
    words = [f"Step {step.number}{where} is open for {_names(step.submitters)}."]
    due = deadline_words(record.get("at"), step.deadline)
    if due:
        words.append(f"It closes {due}; a missing pick gets the game's default.")
    elif m.auto_seal:
        words.append("It has no deadline: it is sealed once everyone has submitted.")
    else:
        words.append("It has no deadline: the host seals it.")
    with contextlib.suppress(KeyError, TypeError, ValueError, IndexError, AttributeError):
        words += shown.opening(step)
    words.append(f"The table: {m.at(seq)}")
    return Message("opened", m.title(f"step {step.number} is open"), " ".join(words))


def _submitted(m: _Match, step: PublicStep, seq: int) -> Message:
    body = (
        f"Everyone has submitted for step {step.number}: {_names(step.submitted)}. "
        f"The picks stay sealed until the rules reveal them. {m.at(seq)}"
    )
    return Message("submitted", m.title(f"everyone has submitted for step {step.number}"), body)


def _decision(m: _Match, data: Mapping[str, Any], record: Mapping[str, Any], seq: int) -> Message:
    shown = games.presentation(m.game)
    who = str(data.get("player"))
    asked = {"player": who, "kind": data.get("kind"), "prompt": data.get("prompt")}
    words = []
    try:
        words.append(shown.decision_words(asked, ""))
        default = shown.default_decision(asked, data.get("default"))[0]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        kind = str(data.get("kind") or "a decision").replace("-", " ")
        words.append(f"Waiting for {who} to decide: {kind}.")
        default = f"{who} will get the default choice"
    due = deadline_words(record.get("at"), data.get("deadline"))
    if due:
        words.append(f"If {who} has not decided {due}, {default}.")
    else:
        words.append(f"If {who} does not decide, the host may apply the default: {default}.")
    words.append(m.at(seq))
    return Message("decision", m.title(f"waiting for {who} to decide"), " ".join(words))


def _resolved(
    m: _Match, records: Sequence[Mapping[str, Any]], data: Mapping[str, Any], seq: int
) -> Message:
    step = data.get("step")
    told = account(records[: seq + 1], step) if isinstance(step, int) else []
    words = [*told[1:], f"The picture: {m.at(seq)}"]
    return Message("resolved", m.title(f"step {step} resolved"), " ".join(words))


def _finished(m: _Match, data: Mapping[str, Any]) -> Message:
    result = data.get("result")
    try:
        words = games.presentation(m.game).result_words(dict(result or {}), m.players)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        words = ["The match is over."]
    words.append(f"Every sealed pick is now disclosed; check the match at {m.page}")
    return Message("ended", m.title("the match is over"), " ".join(words))


def _ended(m: _Match, data: Mapping[str, Any]) -> Message:
    reason = data.get("reason")
    why = f": {reason.strip()}" if isinstance(reason, str) and reason.strip() else ""
    body = (
        f"The host ended the match early{why}. Everything sealed is disclosed as at a "
        f"normal end; check the match at {m.page}"
    )
    return Message("ended", m.title("the match was ended early"), body)


def compose(
    match_id: str, records: Sequence[Mapping[str, Any]], start: int, public_url: str
) -> tuple[list[Message], bool]:
    """The news of ``records[start:]`` of match ``match_id``, and whether its news is over.

    ``records`` are all of the match's public records so far, oldest first (the earlier
    ones give the context). Only public records are read, so nothing sealed can be told.

    :raises ValueError: when ``records`` is empty.
    """
    m = _match(match_id, records, public_url.rstrip("/"))
    log = PublicLog()
    told: list[Message] = []
    ended = over = False
    for seq, record in enumerate(records):
        step = log.current
        waiting = step is not None and step.status is StepStatus.OPEN and bool(step.missing)
        log.apply(record)
        kind, data = record.get("type"), record.get("data")
        if not isinstance(data, dict):
            continue
        over = over or kind in ("MatchFinished", "MatchEnded")
        if seq < start:
            ended = ended or kind == "MatchEnded"
            continue
        if kind == "MatchCreated":
            told.append(_created(m))
        elif kind == "StepOpened" and log.current is not None:
            told.append(_opened(m, log.current, record, seq))
        elif kind == "SubmissionCommitted" and waiting and log.current is not None:
            now = log.current
            if now.status is StepStatus.OPEN and not now.missing:
                told.append(_submitted(m, now, seq))
        elif kind == "DecisionRequested":
            told.append(_decision(m, data, record, seq))
        elif kind == "StepResolved":
            told.append(_resolved(m, records, data, seq))
        elif kind == "MatchEnded" and not ended:
            ended = True
            told.append(_ended(m, data))
        elif kind == "MatchFinished" and not ended:
            told.append(_finished(m, data))
    return told, over


# ---------------------------------------------------------------------------
# The follower
# ---------------------------------------------------------------------------


class News:
    """Follows the public records of matches that have targets and posts their news."""

    def __init__(
        self,
        room: DealerRoom,
        targets: NotifyTargets,
        public_url: str = DEFAULT_PUBLIC_URL,
        *,
        postman: Postman | None = None,
        every: float = 1.0,
        allow_local: bool = False,
        lock: Path | None = None,
    ) -> None:
        """News of ``room``'s matches with ``targets``, read every ``every`` seconds.

        With ``lock`` (a file), the follower thread follows only while it holds an exclusive
        lock on it, so of the workers of one instance one follows, and each target gets its
        news in order (several instances over one store still tell each record once).
        """
        self.room = room
        self.targets = targets
        self.public_url = public_url.rstrip("/")
        self.postman = postman if postman is not None else Postman()
        self.every = every
        self.allow_local = allow_local
        self.lock = lock
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._turn = threading.Lock()  # one pass at a time (the thread's, or a test's)

    def check(self, value: Any) -> list[str]:
        """A create request's ``"notify"`` as targets (:func:`check_targets`, this app's way).

        :raises BadRequest: for anything but a short list of usable apprise URLs.
        """
        return check_targets(value, allow_local=self.allow_local)

    def follow(self, match_id: str, urls: list[str]) -> None:
        """Keep a new match's targets and start following it."""
        self.targets.keep(match_id, urls)
        self.start()
        self._wake.set()

    def start(self) -> None:
        """Start the follower thread (once; not after :meth:`stop`)."""
        if self._thread is not None or self._stop.is_set():
            return
        self._thread = threading.Thread(target=self._loop, name="dealerroom-news", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop following and posting (the threads end soon after)."""
        self._stop.set()
        self._wake.set()
        self.postman.stop()

    def catch_up(self) -> int:
        """Tell the new records of every followed match once; return how many messages."""
        count = 0
        with self._turn:
            for match_id, told in self.targets.following():
                try:
                    count += self._tell(match_id, told)
                except Exception as exc:  # noqa: BLE001 - one match's trouble skips its turn
                    log.warning(
                        "news of match %s: skipped this turn (%s)", match_id, type(exc).__name__
                    )
        return count

    def flush(self, timeout: float = 10.0) -> bool:
        """Tell everything new now and wait until it is posted (tests; shutting down)."""
        self.catch_up()
        return self.postman.wait_idle(timeout)

    def _tell(self, match_id: str, told: int) -> int:
        new = self.room.records(match_id, told)
        if not new:
            return 0
        records = new if told == 0 else self.room.records(match_id)
        messages, over = compose(match_id, records, told, self.public_url)
        urls = self.targets.urls(match_id)  # before advance(), which forgets them when over
        if not self.targets.advance(match_id, told, len(records), done=over):
            return 0  # another worker told these records
        self.postman.post(
            Delivery(match_id, place, url, message.title, message.body)
            for message in messages
            for place, url in enumerate(urls, start=1)
        )
        return len(messages)

    def _loop(self) -> None:
        if self.lock is None:
            self._follow()
            return
        descriptor = os.open(self.lock, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(descriptor, "a") as held:  # open for the follower's life: closing unlocks
            # The first worker follows; the others wait here. A POSIX lock (not flock): a
            # process forked while this one holds it (gunicorn's master builds an app before
            # forking its workers) does not inherit it.
            fcntl.lockf(held, fcntl.LOCK_EX)
            self._follow()

    def _follow(self) -> None:
        while not self._stop.is_set():
            self.catch_up()
            self._wake.wait(self.every)
            self._wake.clear()


# ---------------------------------------------------------------------------
# In the app
# ---------------------------------------------------------------------------


def _public_url(value: Any) -> str:
    """``DEALERROOM_PUBLIC_URL`` checked: an http(s) address, without a trailing slash.

    :raises ConfigError: for anything else.
    """
    text = str(value or DEFAULT_PUBLIC_URL).strip().rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        msg = (
            "DEALERROOM_PUBLIC_URL must be the service's public address, such as "
            "https://dealerroom.example.org"
        )
        raise ConfigError(msg)
    return text


def _on(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


def init_app(app: Flask, services: Services) -> News:
    """Give ``app`` its news follower; it starts now if some match has targets already.

    :raises ConfigError: for a malformed ``DEALERROOM_PUBLIC_URL``.
    """
    news = News(
        services.room,
        services.targets,
        _public_url(app.config.get("DEALERROOM_PUBLIC_URL")),
        allow_local=_on(app.config.get("DEALERROOM_NOTIFY_LOCAL")),
        lock=services.settings.instance / LOCK_FILE,
    )
    app.extensions[EXTENSION] = news
    services.background.append(news)
    if services.targets.following():
        news.start()
    return news


def news(app: Flask | None = None) -> News:
    """The news follower of the current (or given) app."""
    return cast("News", (app if app is not None else current_app).extensions[EXTENSION])


__all__ = ["Message", "News", "check_targets", "compose", "init_app", "news"]
