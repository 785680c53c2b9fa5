"""Each match is a Merkle log; the service signs a checkpoint after every event.

Maintained from the notification log in the same transaction as the match index
(:mod:`service.readmodel`): for every match event, its leaf hash
(``SHA-256(0x00 || JCS(public record))``) is stored, and a C2SP checkpoint of the tree at
the new size is signed with the host's Ed25519 key and kept, so every earlier checkpoint
can be served with a consistency proof. Formats: ``docs/protocol-tamper-evidence.md``.
"""

from __future__ import annotations

import base64
import threading
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, Integer, LargeBinary, MetaData, String, Table, Text, select

from domain.errors import UserError
from domain.match import Match, public_record
from domain.merkle import MerkleLog, record_leaf_hash
from domain.receipt import RECEIPT_FORMAT, later_checkpoint
from domain.signed_note import Checkpoint, Signer, sign_checkpoint

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from sqlalchemy.engine import Connection, Engine


class ProofRequestError(UserError):
    """A proof was asked for sizes or an index the log does not have."""


def b64(data: bytes) -> str:
    """Standard base64 text."""
    return base64.b64encode(data).decode()


def tables(meta: MetaData) -> tuple[Table, Table]:
    """The leaves and checkpoints tables."""
    leaves = Table(
        "dealerroom_leaves",
        meta,
        Column("match_id", String(36), primary_key=True),
        Column("seq", Integer, primary_key=True),
        Column("hash", LargeBinary(32), nullable=False),
    )
    checkpoints = Table(
        "dealerroom_checkpoints",
        meta,
        Column("match_id", String(36), primary_key=True),
        Column("size", Integer, primary_key=True),
        Column("note", Text, nullable=False),
    )
    return leaves, checkpoints


class TransparencyLog:
    """Leaves, signed checkpoints and proofs of every match."""

    def __init__(self, engine: Engine, meta: MetaData, signer: Signer, origin_prefix: str) -> None:
        """The leaves and checkpoints tables in ``meta``, signed by ``signer``."""
        self.engine = engine
        self.leaves, self.checkpoints = tables(meta)
        self.signer = signer
        self.origin_prefix = origin_prefix
        self._logs: dict[str, MerkleLog] = {}
        self._lock = threading.Lock()  # the cached trees are shared by the server's threads

    @property
    def public_key(self) -> str:
        """The verifier key text (C2SP vkey) that checks every checkpoint."""
        return self.signer.verifier().vkey()

    def origin(self, match_id: str) -> str:
        """The checkpoint origin of a match."""
        return f"{self.origin_prefix}/match/{match_id}"

    def _tree(self, conn: Connection, match_id: str, size: int) -> MerkleLog:
        """The match's tree with at least ``size`` leaves: cached, reloaded when behind.

        Callers hold ``self._lock``. A tree answers roots and proofs for every earlier size,
        so queries never rebuild it while it is current.
        """
        log = self._logs.get(match_id)
        if log is None or log.size < size:
            hashes = conn.execute(
                select(self.leaves.c.hash)
                .where(self.leaves.c.match_id == match_id)
                .order_by(self.leaves.c.seq)
            ).scalars()
            log = MerkleLog([bytes(h) for h in hashes])
            if len(self._logs) > 1024:  # noqa: PLR2004 - keep memory bounded
                self._logs.clear()
            self._logs[match_id] = log
        if log.size < size:
            msg = f"match {match_id} has {log.size} leaves, not {size}"
            raise ProofRequestError(msg)
        return log

    def apply_events(self, conn: Connection, events: Sequence[Match.Event]) -> None:
        """Append each event's leaf and sign the checkpoint at each new size.

        The rows of a whole batch go in with one statement per table.
        """
        leaves: list[dict[str, Any]] = []
        heads: list[tuple[str, int, bytes]] = []
        with self._lock:
            for event in events:
                match_id = str(event.originator_id)
                record = public_record(event)
                seq = record["seq"]
                digest = record_leaf_hash(record)
                log = self._tree(conn, match_id, seq)
                if log.size != seq:  # pragma: no cover - the log is append-only
                    msg = f"leaf {seq} of match {match_id} arrived out of order"
                    raise RuntimeError(msg)
                log.append(digest)
                leaves.append({"match_id": match_id, "seq": seq, "hash": digest})
                heads.append((match_id, log.size, log.root()))
        if not leaves:
            return
        notes = [
            {
                "match_id": match_id,
                "size": size,
                "note": sign_checkpoint(Checkpoint(self.origin(match_id), size, root), self.signer),
            }
            for match_id, size, root in heads
        ]
        conn.execute(self.leaves.insert(), leaves)
        conn.execute(self.checkpoints.insert(), notes)

    def forget(self) -> None:
        """Drop cached trees (after a rolled-back transaction)."""
        with self._lock:
            self._logs.clear()

    # ------------------------------------------------------------------ queries

    def size(self, match_id: str) -> int:
        """How many leaves the match's log has."""
        return self._latest(match_id)[0]

    def _latest(self, match_id: str) -> tuple[int, str | None]:
        """The size and signed note of the match's latest checkpoint (``0, None``: none)."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(self.checkpoints.c.size, self.checkpoints.c.note)
                .where(self.checkpoints.c.match_id == match_id)
                .order_by(self.checkpoints.c.size.desc())
                .limit(1)
            ).first()
        return (int(found[0]), str(found[1])) if found else (0, None)

    def checkpoint(self, match_id: str, size: int | None = None) -> dict[str, Any]:
        """The signed checkpoint at ``size`` (default: the latest).

        :raises ProofRequestError: for a size the log never had.
        """
        size = self.size(match_id) if size is None else size
        with self.engine.connect() as conn:
            note = conn.execute(
                select(self.checkpoints.c.note).where(
                    self.checkpoints.c.match_id == match_id, self.checkpoints.c.size == size
                )
            ).scalar()
        if note is None:
            msg = f"match {match_id} has no checkpoint at size {size}"
            raise ProofRequestError(msg)
        return {"size": size, "note": note}

    def every_checkpoint(self, match_id: str) -> list[dict[str, Any]]:
        """Every signed checkpoint of the match, ``{"size", "note"}``, smallest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(self.checkpoints.c.size, self.checkpoints.c.note)
                .where(self.checkpoints.c.match_id == match_id)
                .order_by(self.checkpoints.c.size)
            ).all()
        return [{"size": int(size), "note": note} for size, note in rows]

    def _proof(
        self, match_id: str, size: int, make: Callable[[MerkleLog], list[bytes]]
    ) -> list[str]:
        with self._lock, self.engine.connect() as conn:
            return [b64(h) for h in make(self._tree(conn, match_id, size))]

    def consistency(
        self, match_id: str, old_size: int, new_size: int | None = None
    ) -> dict[str, Any]:
        """The later checkpoint: a newer signed checkpoint, and the proof it extends ``old_size``.

        The one shape written is :func:`domain.receipt.later_checkpoint`.

        :raises ProofRequestError: unless ``0 < old_size <= new_size <= size``.
        """
        new_size = self.size(match_id) if new_size is None else new_size
        if not 0 < old_size <= new_size:
            msg = f"a consistency proof needs 0 < old size <= new size (got {old_size}, {new_size})"
            raise ProofRequestError(msg)
        proof = self._proof(match_id, new_size, lambda t: t.consistency_proof(old_size, new_size))
        note = self.checkpoint(match_id, new_size)["note"]
        return later_checkpoint(match_id, old_size, note, proof)

    def receipt(
        self, match_id: str, record: dict[str, Any], size: int | None = None
    ) -> dict[str, Any]:
        """A receipt for one record: its leaf, an inclusion proof and a signed checkpoint."""
        size, note = self._latest(match_id) if size is None else (size, None)
        if record["seq"] >= size:
            msg = f"record {record['seq']} is not yet in the log of size {size}"
            raise ProofRequestError(msg)
        index = record["seq"]
        proof = self._proof(match_id, size, lambda t: t.inclusion_proof(index, size))
        return {
            "format": RECEIPT_FORMAT,
            "match_id": match_id,
            "origin": self.origin(match_id),
            "public_key": self.public_key,
            "record": record,
            "leaf_index": record["seq"],
            "tree_size": size,
            "inclusion_proof": proof,
            "checkpoint": note or self.checkpoint(match_id, size)["note"],
        }
