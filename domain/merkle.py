"""Merkle log maths: RFC 6962 / RFC 9162 hashing, proofs and their verification.

The exact rules (also in ``docs/protocol-tamper-evidence.md``):

* ``leaf_hash(d) = SHA-256(0x00 || d)``; ``node_hash(l, r) = SHA-256(0x01 || l || r)``.
* The tree over ``n`` leaf hashes is RFC 9162 section 2.1.1: the empty tree hashes to
  ``SHA-256("")``, one leaf is its own leaf hash, and ``n > 1`` leaves split into the first ``k``
  and the other ``n - k``, where ``k`` is the largest power of two below ``n``.
* Leaf indices are **0-based**. Proofs are lists of 32-byte hashes, lowest level first,
  exactly as RFC 9162 sections 2.1.3.1 (``PATH``) and 2.1.4.1 (``PROOF``) build them.
* Verification follows RFC 9162 sections 2.1.3.2 and 2.1.4.2, with the edge cases that the
  transparency-dev/merkle probes pin down: a consistency proof from size 0 is always an error;
  equal sizes need an empty proof and byte-equal roots; hashes of the wrong length are errors;
  an index at or past the size is an error.

:class:`MerkleLog` is the incremental form used by the service: appending a leaf costs one
hash on average, and the root, inclusion proofs and consistency proofs of every earlier size
stay available at a logarithmic cost, because the hash of every complete power-of-two subtree
is kept.

:func:`verify_subtree_inclusion` and :func:`verify_subtree_consistency` verify the subtree
proofs of the Merkle Tree Certificates draft (transparency-dev/merkle ``VerifySubtree*``).
The protocol does not use them; they exist so that the whole transparency-dev probe suite,
including its ``subtree*`` folders, runs against this module.

Only :mod:`hashlib` is used.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from domain.canonical import canonical_json
from domain.errors import UserError

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()

_LEAF_PREFIX = b"\x00"
_NODE_PREFIX = b"\x01"


class ProofError(UserError):
    """A proof, size, index or hash that does not verify."""


# ---------------------------------------------------------------------------
# Hashing
# ---------------------------------------------------------------------------


def leaf_hash(data: bytes) -> bytes:
    """Return the RFC 6962 hash of a leaf: ``SHA-256(0x00 || data)``.

    >>> leaf_hash(b"").hex()[:16]
    '6e340b9cffb37a98'
    """
    return hashlib.sha256(_LEAF_PREFIX + data).digest()


def record_leaf_hash(record: Mapping[str, Any]) -> bytes:
    """Return the leaf hash of a match event's public record: ``SHA-256(0x00 || JCS(record))``.

    :raises ValueError, TypeError: for a record JSON cannot hold.

    >>> record_leaf_hash({"seq": 0, "type": "T", "at": "t", "data": {}}).hex()[:16]
    'e19579717a959cec'
    """
    return leaf_hash(canonical_json(record))


def node_hash(left: bytes, right: bytes) -> bytes:
    r"""Return the RFC 6962 hash of an interior node: ``SHA-256(0x01 || left || right)``.

    >>> node_hash(leaf_hash(b""), leaf_hash(b"\x00")).hex()[:16]
    'fac54203e7cc696c'
    """
    return hashlib.sha256(_NODE_PREFIX + left + right).digest()


def _split(n: int) -> int:
    """Return the largest power of two strictly below ``n`` (``n >= 2``)."""
    return 1 << ((n - 1).bit_length() - 1)


def _mth(leaf_hashes: Sequence[bytes], lo: int, hi: int) -> bytes:
    """Return the Merkle tree hash of ``leaf_hashes[lo:hi]`` (RFC 9162 ``MTH``)."""
    if hi == lo:
        return EMPTY_ROOT
    level = list(leaf_hashes[lo:hi])
    # Pairing each level left to right and lifting an odd last node unchanged builds
    # exactly the RFC tree: the left part is always the largest power of two.
    while len(level) > 1:
        paired = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


def root(leaf_hashes: Sequence[bytes]) -> bytes:
    """Return the root hash of the tree over ``leaf_hashes`` (RFC 9162 ``MTH``).

    >>> root([]).hex()[:16]
    'e3b0c44298fc1c14'
    >>> root([leaf_hash(b"")]) == leaf_hash(b"")
    True
    """
    return _mth(leaf_hashes, 0, len(leaf_hashes))


# ---------------------------------------------------------------------------
# Building proofs from a list of leaf hashes (RFC 9162 2.1.3.1 and 2.1.4.1)
# ---------------------------------------------------------------------------


def _check_size(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        msg = f"{name} must be a non-negative integer, not {value!r}"
        raise ProofError(msg)


def inclusion_proof(leaf_hashes: Sequence[bytes], index: int) -> list[bytes]:
    """Return the inclusion proof ``PATH(index, D[n])`` of leaf ``index`` (0-based).

    :raises ProofError: if ``index`` is not a leaf of the tree.

    >>> leaves = [leaf_hash(bytes([i])) for i in range(3)]
    >>> inclusion_proof(leaves, 2) == [node_hash(leaves[0], leaves[1])]
    True
    """
    _check_size("index", index)
    if index >= len(leaf_hashes):
        msg = f"leaf {index} is not in a tree of size {len(leaf_hashes)}"
        raise ProofError(msg)
    return _path(leaf_hashes, index, 0, len(leaf_hashes))


def _path(leaf_hashes: Sequence[bytes], m: int, lo: int, hi: int) -> list[bytes]:
    if hi - lo == 1:
        return []
    k = _split(hi - lo)
    if m < k:
        return [*_path(leaf_hashes, m, lo, lo + k), _mth(leaf_hashes, lo + k, hi)]
    return [*_path(leaf_hashes, m - k, lo + k, hi), _mth(leaf_hashes, lo, lo + k)]


def consistency_proof(leaf_hashes: Sequence[bytes], old_size: int) -> list[bytes]:
    """Return the consistency proof ``PROOF(old_size, D[n])`` from ``old_size`` to the whole list.

    Equal sizes give the empty proof.

    :raises ProofError: if ``old_size`` is 0 (such a proof cannot be verified) or exceeds the
        list.

    >>> leaves = [leaf_hash(bytes([i])) for i in range(3)]
    >>> consistency_proof(leaves, 2) == [leaves[2]]
    True
    """
    _check_size("old_size", old_size)
    if not 0 < old_size <= len(leaf_hashes):
        msg = f"no consistency proof from size {old_size} to size {len(leaf_hashes)}"
        raise ProofError(msg)
    if old_size == len(leaf_hashes):
        return []
    return _subproof(leaf_hashes, old_size, 0, len(leaf_hashes), known=True)


def _subproof(
    leaf_hashes: Sequence[bytes], m: int, lo: int, hi: int, *, known: bool
) -> list[bytes]:
    n = hi - lo
    if m == n:
        return [] if known else [_mth(leaf_hashes, lo, hi)]
    k = _split(n)
    if m <= k:
        return [
            *_subproof(leaf_hashes, m, lo, lo + k, known=known),
            _mth(leaf_hashes, lo + k, hi),
        ]
    return [
        *_subproof(leaf_hashes, m - k, lo + k, hi, known=False),
        _mth(leaf_hashes, lo, lo + k),
    ]


# ---------------------------------------------------------------------------
# Verifying proofs (RFC 9162 2.1.3.2 and 2.1.4.2)
# ---------------------------------------------------------------------------


def _check_hash(name: str, value: bytes) -> None:
    if not isinstance(value, bytes | bytearray) or len(value) != HASH_SIZE:
        size = len(value) if isinstance(value, bytes | bytearray) else type(value).__name__
        msg = f"{name} must be a {HASH_SIZE}-byte hash, not {size}"
        raise ProofError(msg)


def _check_proof(proof: Sequence[bytes]) -> None:
    for i, h in enumerate(proof):
        _check_hash(f"proof hash {i}", h)


def root_from_inclusion(leaf_hash: bytes, index: int, size: int, proof: Sequence[bytes]) -> bytes:
    """Return the root that ``proof`` gives for leaf ``index`` (0-based) of a tree of ``size``.

    :raises ProofError: if the index is not below the size, a hash is not 32 bytes, or the
        proof has the wrong number of hashes for this index and size.

    >>> a, b = leaf_hash(b"a"), leaf_hash(b"b")
    >>> root_from_inclusion(b, 1, 2, [a]) == node_hash(a, b)
    True
    """
    _check_size("index", index)
    _check_size("size", size)
    if index >= size:
        msg = f"leaf index {index} is not below the tree size {size}"
        raise ProofError(msg)
    _check_hash("the leaf hash", leaf_hash)
    _check_proof(proof)
    fn, sn = index, size - 1
    r = bytes(leaf_hash)
    for p in proof:
        if sn == 0:
            msg = f"the inclusion proof has more than the hashes needed for leaf {index} of {size}"
            raise ProofError(msg)
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        msg = f"the inclusion proof is missing hashes for leaf {index} of {size}"
        raise ProofError(msg)
    return r


def verify_inclusion(
    leaf_hash: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes
) -> None:
    """Check that ``proof`` shows leaf ``index`` (0-based) with ``leaf_hash`` in the tree ``root``.

    :raises ProofError: with the reason, if the proof does not verify.

    >>> a, b = leaf_hash(b"a"), leaf_hash(b"b")
    >>> verify_inclusion(a, 0, 2, [b], node_hash(a, b))
    >>> verify_inclusion(a, 1, 2, [b], node_hash(a, b))
    Traceback (most recent call last):
    ...
    domain.merkle.ProofError: the inclusion proof gives a different root hash
    """
    computed = root_from_inclusion(leaf_hash, index, size, proof)
    _check_hash("the root hash", root)
    if computed != root:
        msg = "the inclusion proof gives a different root hash"
        raise ProofError(msg)


def verify_consistency(
    old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]
) -> None:
    """Check that ``proof`` shows the tree ``new_root`` extends the tree ``old_root``.

    Equal sizes need an empty proof and byte-equal roots (their length is not examined, as in
    transparency-dev/merkle). A proof from size 0 is always an error: it would prove nothing.

    :raises ProofError: with the reason, if the proof does not verify.

    >>> a, b = leaf_hash(b"a"), leaf_hash(b"b")
    >>> verify_consistency(1, 2, a, node_hash(a, b), [b])
    >>> verify_consistency(0, 2, a, node_hash(a, b), [b])
    Traceback (most recent call last):
    ...
    domain.merkle.ProofError: a consistency proof from the empty tree proves nothing
    """
    _check_size("old_size", old_size)
    _check_size("new_size", new_size)
    if new_size < old_size:
        msg = f"the new size {new_size} is below the old size {old_size}"
        raise ProofError(msg)
    if old_size == 0:
        msg = "a consistency proof from the empty tree proves nothing"
        raise ProofError(msg)
    if old_size == new_size:
        if proof:
            msg = "a consistency proof between equal sizes must be empty"
            raise ProofError(msg)
        if old_root != new_root:
            msg = f"the two roots differ although both trees have size {old_size}"
            raise ProofError(msg)
        return
    if not proof:
        msg = f"the consistency proof from size {old_size} to {new_size} is empty"
        raise ProofError(msg)
    _check_hash("the old root hash", old_root)
    _check_hash("the new root hash", new_root)
    _check_proof(proof)

    path = list(proof)
    # RFC 9162 2.1.4.2, step by step.
    if old_size & (old_size - 1) == 0:
        path.insert(0, bytes(old_root))
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            msg = f"the consistency proof from {old_size} to {new_size} has too many hashes"
            raise ProofError(msg)
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        msg = f"the consistency proof from {old_size} to {new_size} is missing hashes"
        raise ProofError(msg)
    if fr != old_root:
        msg = f"the consistency proof does not give the old root at size {old_size}"
        raise ProofError(msg)
    if sr != new_root:
        msg = f"the consistency proof does not give the new root at size {new_size}"
        raise ProofError(msg)


# ---------------------------------------------------------------------------
# Subtree proofs (Merkle Tree Certificates draft; not used by the protocol)
# ---------------------------------------------------------------------------


def _bit_ceil(n: int) -> int:
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def _check_subtree(start: int, end: int) -> None:
    _check_size("start", start)
    _check_size("end", end)
    if start >= end:
        msg = f"the subtree [{start}, {end}) is empty or reversed"
        raise ProofError(msg)
    if start % _bit_ceil(end - start):
        msg = f"[{start}, {end}) is not a subtree: {start} is not a multiple of its rounded-up size"
        raise ProofError(msg)


def verify_subtree_inclusion(
    leaf_hash: bytes, index: int, start: int, end: int, proof: Sequence[bytes], subtree_root: bytes
) -> None:
    """Check that ``proof`` shows leaf ``index`` in the subtree ``[start, end)`` with that root.

    A subtree inclusion proof is an ordinary inclusion proof of leaf ``index - start`` in the
    tree of the ``end - start`` leaves of the subtree.

    :raises ProofError: with the reason, if the subtree is invalid or the proof does not verify.
    """
    _check_subtree(start, end)
    _check_size("index", index)
    if not start <= index < end:
        msg = f"leaf {index} is outside the subtree [{start}, {end})"
        raise ProofError(msg)
    verify_inclusion(leaf_hash, index - start, end - start, proof, subtree_root)


def verify_subtree_consistency(
    start: int, end: int, size: int, subtree_root: bytes, root: bytes, proof: Sequence[bytes]
) -> None:
    """Check that ``proof`` shows the subtree ``[start, end)`` inside the tree of ``size``.

    The empty subtree (``start == end``) needs an empty proof and the empty-tree hash, and says
    nothing about ``root``; ``[0, size)`` needs an empty proof and byte-equal roots.

    :raises ProofError: with the reason, if the subtree is invalid or the proof does not verify.
    """
    _check_size("start", start)
    _check_size("end", end)
    _check_size("size", size)
    if start == end and end <= size:
        if proof:
            msg = "a consistency proof for an empty subtree must be empty"
            raise ProofError(msg)
        if subtree_root != EMPTY_ROOT:
            msg = "an empty subtree must have the empty-tree hash"
            raise ProofError(msg)
        return
    _check_subtree(start, end)
    if size < end:
        msg = f"the subtree [{start}, {end}) does not fit in a tree of size {size}"
        raise ProofError(msg)
    if start == 0 and end == size:
        if proof:
            msg = "a consistency proof from a tree to itself must be empty"
            raise ProofError(msg)
        if subtree_root != root:
            msg = f"the two roots differ although both trees have size {size}"
            raise ProofError(msg)
        return
    if not proof:
        msg = f"the consistency proof for [{start}, {end}) in {size} is empty"
        raise ProofError(msg)
    _check_hash("the subtree root hash", subtree_root)
    _check_hash("the root hash", root)
    _check_proof(proof)

    height = ((end - 1) ^ start).bit_length()  # the subtree's node is at this level
    if end == size:
        # The subtree's node is on the right border: only left siblings lead to the root.
        if len(proof) != (start >> height).bit_count():
            msg = f"the consistency proof for [{start}, {end}) in {size} has the wrong length"
            raise ProofError(msg)
        r = bytes(subtree_root)
        for p in proof:
            r = node_hash(p, r)
    else:
        fork = ((end - 1) ^ (size - 1)).bit_length()
        shift = ((end - start) & -(end - start)).bit_length() - 1
        perfect = end - start == 1 << shift
        seed, rest = (bytes(subtree_root), list(proof)) if perfect else (proof[0], list(proof[1:]))
        want = (fork - shift) + ((end - 1) >> fork).bit_count()
        if len(rest) != want:
            msg = f"the consistency proof for [{start}, {end}) in {size} has the wrong length"
            raise ProofError(msg)
        # Climb from the rightmost perfect subtree to the subtree's node, both as it was at
        # ``end`` (left siblings only) and as it is at ``size`` (right siblings too).
        old = new = seed
        i = 0
        for lvl in range(shift, height):
            if (end - 1) >> lvl & 1:
                old = node_hash(rest[i], old)
                new = node_hash(rest[i], new)
                i += 1
            elif lvl < fork:
                new = node_hash(new, rest[i])
                i += 1
        if old != subtree_root:
            msg = f"the consistency proof does not give the subtree root of [{start}, {end})"
            raise ProofError(msg)
        r = root_from_inclusion(new, start >> height, ((size - 1) >> height) + 1, rest[i:])
    if r != root:
        msg = f"the consistency proof does not give the root at size {size}"
        raise ProofError(msg)


# ---------------------------------------------------------------------------
# The incremental log
# ---------------------------------------------------------------------------


class MerkleLog:
    """An append-only list of leaf hashes that answers for its current and every earlier size.

    ``levels[0]`` holds the leaf hashes and ``levels[k][i]`` the hash of the complete subtree
    over leaves ``[i * 2**k, (i + 1) * 2**k)``. Appending a leaf adds one hash per level it
    completes (one on average), and the roots of the complete subtrees of the current size
    (the *frontier*, one per set bit of the size) give the root in ``log2(size)`` hashes.

    >>> log = MerkleLog()
    >>> for data in (b"a", b"b", b"c"):
    ...     _ = log.append(leaf_hash(data))
    >>> log.root() == root([leaf_hash(b"a"), leaf_hash(b"b"), leaf_hash(b"c")])
    True
    >>> verify_consistency(2, 3, log.root(2), log.root(), log.consistency_proof(2, 3))
    """

    __slots__ = ("_levels",)

    def __init__(self, leaf_hashes: Iterable[bytes] = ()) -> None:
        """Start a log holding ``leaf_hashes``, in order."""
        self._levels: list[list[bytes]] = [[]]
        for h in leaf_hashes:
            self.append(h)

    def __len__(self) -> int:
        """The number of leaves."""
        return len(self._levels[0])

    def __repr__(self) -> str:
        """The size and root, for debugging."""
        return f"<MerkleLog size={len(self)} root={self.root().hex()}>"

    @property
    def size(self) -> int:
        """The number of leaves."""
        return len(self._levels[0])

    def append(self, leaf_hash: bytes) -> int:
        """Append a leaf hash and return its 0-based index.

        :raises ValueError: if ``leaf_hash`` is not 32 bytes.
        """
        if not isinstance(leaf_hash, bytes) or len(leaf_hash) != HASH_SIZE:
            msg = f"a leaf hash is {HASH_SIZE} bytes"
            raise ValueError(msg)
        index = len(self._levels[0])
        self._levels[0].append(leaf_hash)
        level = 0
        # Every complete pair on a level completes a subtree one level up.
        while len(self._levels[level]) % 2 == 0:
            row = self._levels[level]
            if level + 1 == len(self._levels):
                self._levels.append([])
            self._levels[level + 1].append(node_hash(row[-2], row[-1]))
            level += 1
        return index

    def leaf_hash(self, index: int) -> bytes:
        """Return the hash of leaf ``index`` (0-based).

        :raises IndexError: if there is no such leaf.
        """
        if not 0 <= index < self.size:
            msg = f"leaf {index} is not in a log of size {self.size}"
            raise IndexError(msg)
        return self._levels[0][index]

    def frontier(self, size: int | None = None) -> list[bytes]:
        """Return the roots of the complete subtrees that make up the tree of ``size``, left first.

        :raises ValueError: if ``size`` exceeds the log.
        """
        n = self._size_arg(size)
        out = []
        start = 0
        for level in range(n.bit_length() - 1, -1, -1):
            if n >> level & 1:
                out.append(self._levels[level][start >> level])
                start += 1 << level
        return out

    def root(self, size: int | None = None) -> bytes:
        """Return the root hash of the tree of the first ``size`` leaves (default: all).

        :raises ValueError: if ``size`` exceeds the log.
        """
        n = self._size_arg(size)
        return self._range_hash(0, n)

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        """Return the inclusion proof of leaf ``index`` (0-based) in the tree of ``size`` leaves.

        :raises ValueError: if ``size`` exceeds the log or ``index`` is not below it.
        """
        n = self._size_arg(size)
        if not 0 <= index < n:
            msg = f"leaf {index} is not in the tree of size {n}"
            raise ValueError(msg)
        proof: list[bytes] = []
        lo, hi, m = 0, n, index
        # RFC 9162 PATH, walked from the root down; siblings are collected top first.
        while hi - lo > 1:
            k = _split(hi - lo)
            if m < lo + k:
                proof.append(self._range_hash(lo + k, hi))
                hi = lo + k
            else:
                proof.append(self._range_hash(lo, lo + k))
                lo += k
        proof.reverse()
        return proof

    def consistency_proof(self, old_size: int, new_size: int | None = None) -> list[bytes]:
        """Return the consistency proof from the tree of ``old_size`` to that of ``new_size``.

        :raises ValueError: unless ``0 < old_size <= new_size <= len(self)``.
        """
        n = self._size_arg(new_size)
        if not 0 < old_size <= n:
            msg = f"no consistency proof from size {old_size} to size {n}"
            raise ValueError(msg)
        proof: list[bytes] = []
        lo, hi, m, known = 0, n, old_size, True
        # RFC 9162 SUBPROOF, walked from the root down; hashes are collected top first.
        while m != hi - lo:
            k = _split(hi - lo)
            if m <= k:
                proof.append(self._range_hash(lo + k, hi))
                hi = lo + k
            else:
                proof.append(self._range_hash(lo, lo + k))
                lo, m, known = lo + k, m - k, False
        if not known:
            proof.append(self._range_hash(lo, hi))
        proof.reverse()
        return proof

    def _size_arg(self, size: int | None) -> int:
        if size is None:
            return self.size
        if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= self.size:
            msg = f"size {size!r} is not between 0 and the log size {self.size}"
            raise ValueError(msg)
        return size

    def _range_hash(self, lo: int, hi: int) -> bytes:
        """Return ``MTH`` of leaves ``[lo, hi)``.

        ``lo`` is a multiple of a power of two at least ``hi - lo`` (true of every node of an
        RFC 6962 tree).
        """
        if hi == lo:
            return EMPTY_ROOT
        # The range splits into complete subtrees of decreasing size, all stored.
        parts = []
        start, n = lo, hi - lo
        for level in range(n.bit_length() - 1, -1, -1):
            if n >> level & 1:
                parts.append(self._levels[level][start >> level])
                start += 1 << level
        h = parts[-1]
        for p in reversed(parts[:-1]):
            h = node_hash(p, h)
        return h
