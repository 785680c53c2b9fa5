"""Browser grants: a private link's credential exchanged for a revocable server-side grant.

A page that opens a private link (the host console, a dealer room) exchanges the role's
token for a *grant*: a fresh random id that the browser keeps in its session cookie, while
the service keeps only the id's hash, with the match, the role and the hash of the
credential it was made from. A grant acts as its role only while

* it has not been revoked (signing out revokes it, on the server: a copied cookie stops
  working at once), and has not expired, and
* the role's credential is still the one it was made from (a re-invite gives the seat a new
  credential, so every grant made from the old one dies with it).

These rows are operational data, not game events: they never enter a match's log.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import Boolean, Column, DateTime, MetaData, String, Table, select, update

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

GRANT_LIFETIME = timedelta(days=31)


def _hash(grant_id: str) -> str:
    return hashlib.sha256(grant_id.encode()).hexdigest()


def made_from(credential_hash: str) -> str:
    """What a grant row keeps of its credential: a one-way tag of its stored hash.

    Not the hash itself, so this table shows nothing the match's sealed fields hold.
    """
    return hashlib.sha256(b"dealerroom/grant/v1\x00" + credential_hash.encode()).hexdigest()


class Grants:
    """The table of browser grants."""

    def __init__(self, engine: Engine, schema: str | None) -> None:
        """Create the grants table in ``schema`` of ``engine`` if it is missing."""
        self.engine = engine
        meta = MetaData(schema=schema)
        self.table = Table(
            "dealerroom_grants",
            meta,
            Column("grant_hash", String(64), primary_key=True),
            Column("match_id", String(36), nullable=False, index=True),
            Column("role", String(200), nullable=False),
            Column("credential_hash", String(64), nullable=False),
            Column("expires_at", DateTime(timezone=True), nullable=False),
            Column("revoked", Boolean, nullable=False, default=False),
        )
        meta.create_all(engine, checkfirst=True)

    def open(self, match_id: str, role: str, credential_hash: str, now: datetime) -> str:
        """Record a new grant for ``role`` made from ``credential_hash``; return its id."""
        grant_id = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            conn.execute(
                self.table.insert().values(
                    grant_hash=_hash(grant_id),
                    match_id=match_id,
                    role=role,
                    credential_hash=made_from(credential_hash),
                    expires_at=now + GRANT_LIFETIME,
                    revoked=False,
                )
            )
        return grant_id

    def credential(self, match_id: str, role: str, grant_id: str, now: datetime) -> str | None:
        """The :func:`made_from` tag of a live grant's credential (``None``: no such grant).

        The lookup is by the grant id's hash (an index probe, not a comparison of secrets).
        """
        if not isinstance(grant_id, str) or len(grant_id) > 100:  # noqa: PLR2004
            return None
        t = self.table
        with self.engine.connect() as conn:
            row = conn.execute(
                select(t.c.credential_hash, t.c.expires_at, t.c.revoked).where(
                    t.c.grant_hash == _hash(grant_id),
                    t.c.match_id == match_id,
                    t.c.role == role,
                )
            ).first()
        if row is None or row.revoked:
            return None
        expires = row.expires_at
        if expires.tzinfo is None:  # SQLite gives naive UTC times back
            expires = expires.replace(tzinfo=now.tzinfo)
        return None if expires <= now else str(row.credential_hash)

    def revoke(self, match_id: str, grant_ids: list[str]) -> None:
        """Revoke these grants of the match (signing out)."""
        hashes = [_hash(g) for g in grant_ids if isinstance(g, str)]
        if not hashes:
            return
        t = self.table
        with self.engine.begin() as conn:
            conn.execute(
                update(t)
                .where(t.c.match_id == match_id, t.c.grant_hash.in_(hashes))
                .values(revoked=True)
            )
