"""Each match is a Merkle log; the service signs a checkpoint after every save.

Written in each save's own transaction, with the match index (:mod:`service.readmodel`):
for every match event, its leaf hash (``SHA-256(0x00 || JCS(public record))``) is stored,
and a C2SP checkpoint of the tree at the match's new size is signed with the host's Ed25519
key and kept (one per match per save, however many events or grouped commands it holds),
so every checkpoint ever given out can be served again with a consistency proof.
Formats: ``docs/protocol-tamper-evidence.md``.
"""

from __future__ import annotations

import base64
import threading
from typing import TYPE_CHECKING, Any

from eventsourcing.persistence import IntegrityError
from sqlalchemy import Column, Integer, LargeBinary, MetaData, String, Table, Text, select

from domain.errors import UserError
from domain.merkle import MerkleLog, record_leaf_hash
from domain.receipt import RECEIPT_FORMAT, later_checkpoint
from domain.signed_note import Checkpoint, Signer, sign_checkpoint

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from sqlalchemy.engine import Connection, Engine

    from domain.match import Match


CACHED_TREES = 1024
"""Merkle trees of recently written or proven matches a process keeps in memory."""


class ProofRequestError(UserError):
    """A proof was asked for sizes or an index the log does not have."""


class LeafTaken(IntegrityError):
    """A save's leaf position is in the log already: another worker saved the match first."""


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
        """The match's tree with at least ``size`` leaves: cached, caught up when behind.

        Callers hold ``self._lock``. A tree answers roots and proofs for every earlier size,
        so queries never rebuild it while it is current. A cached tree behind the store
        (another worker saved the match) reads only the leaves it lacks.
        """
        log = self._logs.get(match_id)
        if log is None or log.size < size:
            start = 0 if log is None else log.size
            hashes = conn.execute(
                select(self.leaves.c.hash)
                .where(self.leaves.c.match_id == match_id, self.leaves.c.seq >= start)
                .order_by(self.leaves.c.seq)
            ).scalars()
            if log is None:
                log = MerkleLog([bytes(h) for h in hashes])
            else:
                for digest in hashes:
                    log.append(bytes(digest))
            self._logs.pop(match_id, None)
            while len(self._logs) >= CACHED_TREES:  # forget the tree loaded longest ago
                self._logs.pop(next(iter(self._logs)))
            self._logs[match_id] = log
        if log.size < size:
            msg = f"match {match_id} has {log.size} leaves, not {size}"
            raise ProofRequestError(msg)
        return log

    def apply_events(
        self, conn: Connection, events: Sequence[tuple[Match.Event, dict[str, Any]]]
    ) -> dict[str, tuple[int, str]]:
        """Append each event's leaf; sign one checkpoint per match, at its new size.

        ``events`` are one save's, in order, each with its public record. Their leaves go in
        with one statement, and each match saved gets one signed checkpoint of its tree after
        them: a save of several
        commands (group commit) signs once per match, not once per event. Return each
        match's ``(size, note)``. The caller's transaction holds the rows; if it rolls back,
        the caller calls :meth:`forget` for these matches.
        """
        leaves: list[dict[str, Any]] = []
        heads: dict[str, tuple[int, bytes]] = {}
        with self._lock:
            for event, record in events:
                match_id = str(event.originator_id)
                seq = record["seq"]
                digest = record_leaf_hash(record)
                log = self._tree(conn, match_id, seq)
                if log.size != seq:  # another worker saved this position: a lost race
                    self._logs.pop(match_id, None)
                    msg = f"leaf {seq} of match {match_id} is taken (the log has {log.size})"
                    raise LeafTaken(msg)
                log.append(digest)
                leaves.append({"match_id": match_id, "seq": seq, "hash": digest})
                heads[match_id] = (log.size, log.root())
        if not leaves:
            return {}
        signed = {
            match_id: (
                size,
                sign_checkpoint(Checkpoint(self.origin(match_id), size, root), self.signer),
            )
            for match_id, (size, root) in heads.items()
        }
        conn.execute(self.leaves.insert(), leaves)
        conn.execute(
            self.checkpoints.insert(),
            [{"match_id": m, "size": size, "note": note} for m, (size, note) in signed.items()],
        )
        return signed

    def forget(self, match_ids: Sequence[str] | None = None) -> None:
        """Drop cached trees (after a rolled-back transaction): these matches', or all."""
        with self._lock:
            if match_ids is None:
                self._logs.clear()
            for match_id in match_ids or ():
                self._logs.pop(match_id, None)

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
        with self._lock:
            log = self._logs.get(match_id)
            if log is not None and log.size >= size:  # the usual case: no query at all
                return [b64(h) for h in make(log)]
            with self.engine.connect() as conn:
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
        self,
        match_id: str,
        record: dict[str, Any],
        size: int | None = None,
        note: str | None = None,
    ) -> dict[str, Any]:
        """A receipt for one record: its leaf, an inclusion proof and a signed checkpoint.

        ``size`` and ``note`` (the checkpoint a save just signed) spare the store a read;
        without them the latest checkpoint is used.
        """
        if size is None:
            size, note = self._latest(match_id)
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
