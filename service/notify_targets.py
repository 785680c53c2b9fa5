"""A match's notification targets: where its news goes, private to the host.

A host may give a match up to five notification targets (apprise URLs: a Discord or Slack
webhook, a Matrix room, an email address...). Such a URL usually *is* a credential (a
webhook's address is its secret), so the targets are operational data like
:mod:`service.grants`: never an event, never in a public record, a status, a page, a bundle
or a log line. They are stored encrypted with the sealing key (the same AES-GCM sealing as a
sealed pick, :class:`~service.sealing.SealedTranscoding`, bound to the match and to this
table), and forgotten once the match's news is over.

Beside the targets, each row keeps how far the match's news has gone: ``announced``, the
number of the match's public records already told. Whoever tells the next records (the web
layer's news follower, :mod:`web.news`) first moves ``announced`` on with a compare-and-set
(:meth:`NotifyTargets.advance`), so when several processes follow the same store, each
record is told once, by the one whose move succeeded.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from sqlalchemy import Boolean, Column, Integer, MetaData, String, Table, Text, select, update

from domain.sealed import Sealed, binding
from service.sealing import SealedTranscoding, SealingError

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

FIELD = "notify"  # the binding's field name: these ciphertexts open only as a match's targets


class NotifyTargets:
    """The table of matches' notification targets and how far their news has gone."""

    def __init__(self, engine: Engine, schema: str | None, keys: tuple[bytes, ...]) -> None:
        """Create the table in ``schema`` of ``engine`` if it is missing; seal with ``keys``."""
        self.engine = engine
        self._sealing = SealedTranscoding(keys)
        meta = MetaData(schema=schema)
        self.table = Table(
            "dealerroom_notify_targets",
            meta,
            Column("match_id", String(36), primary_key=True),
            Column("targets", Text, nullable=True),  # sealed; emptied once the news is over
            Column("announced", Integer, nullable=False, default=0),
            Column("done", Boolean, nullable=False, default=False, index=True),
        )
        meta.create_all(engine, checkfirst=True)

    def keep(self, match_id: str, urls: list[str]) -> None:
        """Keep ``urls`` as the targets of a new match; its news starts at its first record."""
        sealed = self._sealing.encode(Sealed(list(urls), binding(match_id, 0, "", FIELD)))
        with self.engine.begin() as conn:
            conn.execute(
                self.table.insert().values(
                    match_id=match_id, targets=json.dumps(sealed), announced=0, done=False
                )
            )

    def urls(self, match_id: str) -> list[str]:
        """The match's targets (``[]``: none, or its news is over).

        :raises SealingError: when the stored targets cannot be opened (an altered store, a
            sealing key that is no longer configured).
        """
        t = self.table
        with self.engine.connect() as conn:
            text = conn.execute(select(t.c.targets).where(t.c.match_id == match_id)).scalar()
        if not text:
            return []
        try:
            stored = json.loads(text)
        except ValueError:
            msg = f"the notification targets of match {match_id} are not readable"
            raise SealingError(msg) from None
        opened = self._sealing.decode(stored)
        if opened.bound != binding(match_id, 0, "", FIELD) or not isinstance(opened.value, list):
            msg = f"the notification targets of match {match_id} are not that match's"
            raise SealingError(msg)
        return [str(url) for url in opened.value]

    def following(self) -> list[tuple[str, int]]:
        """Each match whose news is not over, with how many of its records were told."""
        t = self.table
        with self.engine.connect() as conn:
            rows = conn.execute(select(t.c.match_id, t.c.announced).where(t.c.done.is_(False)))
            return [(str(row.match_id), int(row.announced)) for row in rows]

    def advance(self, match_id: str, told: int, now: int, *, done: bool = False) -> bool:
        """Move the match's news from ``told`` records to ``now``, if no one moved it yet.

        Return whether this call moved it (the caller then tells those records). ``done``
        ends the match's news and forgets its targets.
        """
        t = self.table
        values: dict[str, object] = {"announced": now}
        if done:
            values |= {"done": True, "targets": None}
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(t)
                .where(t.c.match_id == match_id, t.c.announced == told, t.c.done.is_(False))
                .values(**values)
            )
        return moved.rowcount == 1


__all__ = ["NotifyTargets"]
