"""The Merkle log maths against every published vector, plus properties of MerkleLog.

Vectors live outside the repository, in the shared ``vectors/`` folder (see its README); set
``DEALERROOM_VECTORS`` to point elsewhere. A missing folder fails these tests, it never skips
them. All leaf indices in the vectors are 0-based.
"""

from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.merkle import (
    EMPTY_ROOT,
    MerkleLog,
    ProofError,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    node_hash,
    root,
    root_from_inclusion,
    verify_consistency,
    verify_inclusion,
    verify_subtree_consistency,
    verify_subtree_inclusion,
)

VECTORS = Path(
    os.environ.get("DEALERROOM_VECTORS")
    or Path(__file__).resolve().parents[3] / "shared" / "vectors"
)
PROBES = VECTORS / "transparency-dev-merkle-testdata"


def load(name: str) -> Any:
    path = VECTORS / name
    assert path.is_file(), f"test vector {path} is missing; set DEALERROOM_VECTORS"
    return json.loads(path.read_text())


def h(hex_text: str) -> bytes:
    return bytes.fromhex(hex_text)


def b64(text: str | None) -> bytes:
    return base64.b64decode(text) if text is not None else b""


REF = load("rfc6962_reference_tree.json")
LEAVES = [leaf_hash(h(x)) for x in REF["leaves_hex"]]
ROOTS = {int(n): h(r) for n, r in REF["roots_by_size"].items()}


# ---------------------------------------------------------------------------
# RFC 6962 reference tree
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kat", REF["hasher_kats"], ids=lambda k: k["what"])
def test_hasher_known_answers(kat: dict[str, str]) -> None:
    if "input_hex" in kat:
        assert leaf_hash(h(kat["input_hex"])).hex() == kat["expect"]
    elif "left_hex" in kat:
        assert node_hash(h(kat["left_hex"]), h(kat["right_hex"])).hex() == kat["expect"]
    else:
        assert root([]).hex() == kat["expect"] == EMPTY_ROOT.hex()


@pytest.mark.parametrize("size", range(9))
def test_roots_of_the_reference_tree_for_sizes_0_to_8(size: int) -> None:
    assert root(LEAVES[:size]) == ROOTS[size]
    assert MerkleLog(LEAVES[:size]).root() == ROOTS[size]
    assert MerkleLog(LEAVES).root(size) == ROOTS[size]


def test_node_hashes_by_level_are_the_complete_subtrees() -> None:
    for level, hashes in enumerate(REF["node_hashes_by_level"]):
        width = 1 << level
        for i, expected in enumerate(hashes):
            assert root(LEAVES[i * width : (i + 1) * width]).hex() == expected


@pytest.mark.parametrize(
    "item",
    REF["derived_all_inclusion_proofs"]["items"],
    ids=lambda it: f"leaf{it['leaf_index']}-of-{it['tree_size']}",
)
def test_every_inclusion_proof_of_the_reference_tree(item: dict[str, Any]) -> None:
    index, size = item["leaf_index"], item["tree_size"]
    proof = [h(x) for x in item["proof"]]
    assert inclusion_proof(LEAVES[:size], index) == proof
    assert MerkleLog(LEAVES).inclusion_proof(index, size) == proof
    verify_inclusion(LEAVES[index], index, size, proof, ROOTS[size])
    assert root_from_inclusion(LEAVES[index], index, size, proof) == ROOTS[size]


@pytest.mark.parametrize(
    "item",
    REF["derived_all_consistency_proofs"]["items"],
    ids=lambda it: f"{it['size1']}-to-{it['size2']}",
)
def test_every_consistency_proof_of_the_reference_tree(item: dict[str, Any]) -> None:
    old, new = item["size1"], item["size2"]
    proof = [h(x) for x in item["proof"]]
    assert consistency_proof(LEAVES[:new], old) == proof
    assert MerkleLog(LEAVES).consistency_proof(old, new) == proof
    verify_consistency(old, new, ROOTS[old], ROOTS[new], proof)


def test_the_derived_tables_are_complete() -> None:
    assert len(REF["derived_all_inclusion_proofs"]["items"]) == sum(range(1, 9))
    assert len(REF["derived_all_consistency_proofs"]["items"]) == sum(range(1, 9))


@pytest.mark.parametrize(
    "item",
    REF["published_inclusion_proofs"],
    ids=lambda it: f"{it['leaf_index']}-of-{it['tree_size']}",
)
def test_published_inclusion_proofs(item: dict[str, Any]) -> None:
    index, size = item["leaf_index"], item["tree_size"]
    proof = [h(x) for x in item["proof"]]
    assert LEAVES[index] == h(item["leaf_hash"])
    assert ROOTS[size] == h(item["root"])
    assert inclusion_proof(LEAVES[:size], index) == proof
    verify_inclusion(h(item["leaf_hash"]), index, size, proof, h(item["root"]))


@pytest.mark.parametrize(
    "item", REF["published_consistency_proofs"], ids=lambda it: f"{it['size1']}-to-{it['size2']}"
)
def test_published_consistency_proofs(item: dict[str, Any]) -> None:
    old, new = item["size1"], item["size2"]
    proof = [h(x) for x in item["proof"]]
    assert (ROOTS[old], ROOTS[new]) == (h(item["root1"]), h(item["root2"]))
    assert consistency_proof(LEAVES[:new], old) == proof
    verify_consistency(old, new, h(item["root1"]), h(item["root2"]), proof)


# ---------------------------------------------------------------------------
# transparency-dev/merkle probes (all 518 files)
# ---------------------------------------------------------------------------

PROBE_FILES = sorted(PROBES.rglob("*.json"))


def run_probe(kind: str, probe: dict[str, Any]) -> None:
    proof = [b64(x) for x in probe["proof"] or []]
    if kind == "inclusion":
        verify_inclusion(
            b64(probe["leafHash"]), probe["leafIdx"], probe["treeSize"], proof, b64(probe["root"])
        )
    elif kind == "consistency":
        verify_consistency(
            probe["size1"], probe["size2"], b64(probe["root1"]), b64(probe["root2"]), proof
        )
    elif kind == "subtreeinclusion":
        # An ordinary inclusion proof inside the subtree [start, end) (MTC draft).
        verify_subtree_inclusion(
            b64(probe["leafHash"]),
            probe["leafIdx"],
            probe["start"],
            probe["end"],
            proof,
            b64(probe["root"]),
        )
    elif kind == "subtreeconsistency":
        # Generalises RFC 9162 consistency to a subtree [start, end) of the tree (MTC draft).
        verify_subtree_consistency(
            probe["start"],
            probe["end"],
            probe["size"],
            b64(probe["root1"]),
            b64(probe["root2"]),
            proof,
        )
    else:  # pragma: no cover - a new probe folder must be wired up, not skipped
        pytest.fail(f"unknown probe kind {kind}")


def test_every_probe_file_is_collected() -> None:
    assert len(PROBE_FILES) == 518
    kinds = {p.relative_to(PROBES).parts[0] for p in PROBE_FILES}
    assert kinds == {"inclusion", "consistency", "subtreeinclusion", "subtreeconsistency"}


@pytest.mark.parametrize(
    "path", PROBE_FILES, ids=lambda p: str(p.relative_to(PROBES)).removesuffix(".json")
)
def test_transparency_dev_probe(path: Path) -> None:
    probe = json.loads(path.read_text())
    kind = path.relative_to(PROBES).parts[0]
    if probe["wantErr"]:
        with pytest.raises(ProofError):
            run_probe(kind, probe)
    else:
        run_probe(kind, probe)


# A subtree that starts at leaf 0 is a whole tree, so the RFC 9162 verifiers must give the
# same verdict. A shifted subtree has no RFC 9162 counterpart; the probe test above covers it.
SUBTREE_FROM_ZERO = [
    p
    for p in PROBE_FILES
    if p.relative_to(PROBES).parts[0].startswith("subtree")
    and json.loads(p.read_text())["start"] == 0
]


@pytest.mark.parametrize(
    "path", SUBTREE_FROM_ZERO, ids=lambda p: str(p.relative_to(PROBES)).removesuffix(".json")
)
def test_subtree_probes_from_leaf_0_agree_with_the_rfc_verifiers(path: Path) -> None:
    probe = json.loads(path.read_text())
    proof = [b64(x) for x in probe["proof"] or []]
    try:
        if "leafIdx" in probe:
            verify_inclusion(
                b64(probe["leafHash"]), probe["leafIdx"], probe["end"], proof, b64(probe["root"])
            )
        else:
            verify_consistency(
                probe["end"], probe["size"], b64(probe["root1"]), b64(probe["root2"]), proof
            )
    except ProofError:
        failed = True
    else:
        failed = False
    empty_subtree_probe = "leafIdx" not in probe and probe["end"] == 0
    if empty_subtree_probe:
        # The draft accepts the empty subtree [0, 0); RFC 9162 rejects a proof from size 0.
        assert failed
    else:
        assert failed == probe["wantErr"]


# ---------------------------------------------------------------------------
# Real Certificate Transparency data (Google Argon 2020)
# ---------------------------------------------------------------------------

ARGON = load("ct_argon2020_real_log.json")


def test_argon2020_inclusion_of_leaf_10000_in_961984013_leaves() -> None:
    inc = ARGON["inclusion"]
    leaf = leaf_hash(b64(inc["leaf_input_b64"]))
    assert leaf.hex() == inc["leaf_hash_hex_derived"]
    proof = [b64(x) for x in inc["audit_path"]]
    assert len(proof) == 30
    verify_inclusion(leaf, inc["leaf_index"], ARGON["tree_size"], proof, b64(ARGON["root"]))
    with pytest.raises(ProofError):
        verify_inclusion(leaf, inc["leaf_index"] + 1, ARGON["tree_size"], proof, b64(ARGON["root"]))


def test_argon2020_consistency_from_3654490_to_961984013() -> None:
    c = ARGON["consistency"]
    proof = [b64(x) for x in c["proof"]]
    verify_consistency(c["size1"], c["size2"], b64(c["root1"]), b64(ARGON["root"]), proof)
    with pytest.raises(ProofError):
        verify_consistency(c["size1"] + 1, c["size2"], b64(c["root1"]), b64(ARGON["root"]), proof)


def test_argon2020_golang_mod_files_match_the_summary() -> None:
    sth = load("golang-mod-argon2020/sth.json")
    proof = load("golang-mod-argon2020/proof.json")
    consistency = load("golang-mod-argon2020/consistency.json")
    entries = load("golang-mod-argon2020/entries.json")
    assert sth["tree_size"] == ARGON["tree_size"]
    assert sth["sha256_root_hash"] == ARGON["root"]
    assert proof["leaf_index"] == ARGON["inclusion"]["leaf_index"]
    leaf = leaf_hash(b64(entries["entries"][0]["leaf_input"]))
    verify_inclusion(
        leaf,
        proof["leaf_index"],
        sth["tree_size"],
        [b64(x) for x in proof["audit_path"]],
        b64(sth["sha256_root_hash"]),
    )
    verify_consistency(
        ARGON["consistency"]["size1"],
        sth["tree_size"],
        b64(ARGON["consistency"]["root1"]),
        b64(sth["sha256_root_hash"]),
        [b64(x) for x in consistency["consistency"]],
    )


# ---------------------------------------------------------------------------
# Edge cases and errors
# ---------------------------------------------------------------------------


def test_an_index_at_or_past_the_size_is_an_error() -> None:
    with pytest.raises(ProofError, match="not below the tree size"):
        verify_inclusion(LEAVES[0], 1, 1, [], ROOTS[1])
    with pytest.raises(ProofError):
        inclusion_proof(LEAVES[:3], 3)
    with pytest.raises(ValueError, match="not in the tree"):
        MerkleLog(LEAVES).inclusion_proof(3, 3)


def test_a_consistency_proof_from_size_zero_is_an_error() -> None:
    with pytest.raises(ProofError, match="empty tree"):
        verify_consistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, [])
    with pytest.raises(ProofError, match="no consistency proof from size 0"):
        consistency_proof(LEAVES, 0)
    with pytest.raises(ValueError, match="no consistency proof from size 0"):
        MerkleLog(LEAVES).consistency_proof(0, 3)


def test_wrong_length_hashes_are_errors() -> None:
    proof = inclusion_proof(LEAVES[:3], 0)
    with pytest.raises(ProofError, match="32-byte"):
        verify_inclusion(LEAVES[0][:31], 0, 3, proof, ROOTS[3])
    with pytest.raises(ProofError, match="32-byte"):
        verify_inclusion(LEAVES[0], 0, 3, [proof[0] + b"\x00", proof[1]], ROOTS[3])
    with pytest.raises(ProofError, match="32-byte"):
        verify_inclusion(LEAVES[0], 0, 3, proof, ROOTS[3] + b"\x00")
    with pytest.raises(ProofError, match="32-byte"):
        verify_consistency(2, 3, ROOTS[2][:16], ROOTS[3], consistency_proof(LEAVES[:3], 2))


def test_negative_or_non_integer_sizes_are_errors() -> None:
    with pytest.raises(ProofError):
        verify_inclusion(LEAVES[0], -1, 1, [], ROOTS[1])
    with pytest.raises(ProofError):
        verify_consistency(True, 2, ROOTS[1], ROOTS[2], [LEAVES[1]])


def test_merkle_log_rejects_a_leaf_hash_of_the_wrong_length() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        MerkleLog().append(b"short")


def test_merkle_log_rejects_sizes_beyond_its_length() -> None:
    log = MerkleLog(LEAVES[:3])
    with pytest.raises(ValueError, match="not between 0 and the log size 3"):
        log.root(4)
    with pytest.raises(IndexError):
        log.leaf_hash(3)


def test_the_frontier_is_one_complete_subtree_per_set_bit_of_the_size() -> None:
    log = MerkleLog(LEAVES[:7])
    assert log.frontier() == [root(LEAVES[0:4]), root(LEAVES[4:6]), LEAVES[6]]
    assert log.frontier(0) == []


def test_a_100000_leaf_log_is_fast_and_appending_does_not_rehash() -> None:
    leaves = [leaf_hash(i.to_bytes(4, "big")) for i in range(100_000)]
    start = time.perf_counter()
    log = MerkleLog(leaves)
    full = log.root()
    assert time.perf_counter() - start < 1.0
    assert full == root(leaves)
    # One more leaf: a handful of hashes, not a rebuild.
    start = time.perf_counter()
    for extra in range(100):
        log.append(leaf_hash(b"extra" + bytes([extra])))
        log.root()
    assert time.perf_counter() - start < 0.05
    assert log.root(100_000) == full
    proof = log.inclusion_proof(12_345, 100_000)
    verify_inclusion(leaves[12_345], 12_345, 100_000, proof, full)
    verify_consistency(100_000, log.size, full, log.root(), log.consistency_proof(100_000))


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

PROPERTY = settings(max_examples=25, deadline=None)


def build(size: int) -> tuple[list[bytes], MerkleLog]:
    leaves = [leaf_hash(b"leaf-%d" % i) for i in range(size)]
    return leaves, MerkleLog(leaves)


@PROPERTY
@given(st.integers(min_value=1, max_value=70), st.data())
def test_every_inclusion_proof_verifies_for_every_earlier_size(
    size: int, data: st.DataObject
) -> None:
    leaves, log = build(size)
    for n in {size, data.draw(st.integers(min_value=1, max_value=size))}:
        for i in range(n):
            proof = log.inclusion_proof(i, n)
            assert proof == inclusion_proof(leaves[:n], i)
            verify_inclusion(leaves[i], i, n, proof, log.root(n))


@PROPERTY
@given(st.integers(min_value=1, max_value=40))
def test_every_consistency_proof_between_two_sizes_verifies(size: int) -> None:
    leaves, log = build(size)
    roots = [log.root(n) for n in range(size + 1)]
    for old in range(1, size + 1):
        for new in range(old, size + 1):
            proof = log.consistency_proof(old, new)
            assert proof == consistency_proof(leaves[:new], old)
            verify_consistency(old, new, roots[old], roots[new], proof)


def flip(data: bytes, position: int, bit: int) -> bytes:
    out = bytearray(data)
    out[position % len(out)] ^= 1 << bit
    return bytes(out)


@PROPERTY
@given(
    st.integers(min_value=2, max_value=100),
    st.data(),
    st.integers(min_value=0, max_value=31),
    st.integers(min_value=0, max_value=7),
)
def test_a_flipped_bit_in_an_inclusion_proof_or_root_fails(
    size: int, data: st.DataObject, position: int, bit: int
) -> None:
    leaves, log = build(size)
    index = data.draw(st.integers(min_value=0, max_value=size - 1))
    proof = log.inclusion_proof(index)
    which = data.draw(st.integers(min_value=0, max_value=len(proof)))
    if which == len(proof):
        with pytest.raises(ProofError):
            verify_inclusion(leaves[index], index, size, proof, flip(log.root(), position, bit))
    else:
        proof[which] = flip(proof[which], position, bit)
        with pytest.raises(ProofError):
            verify_inclusion(leaves[index], index, size, proof, log.root())


@PROPERTY
@given(
    st.integers(min_value=2, max_value=100),
    st.data(),
    st.integers(min_value=0, max_value=31),
    st.integers(min_value=0, max_value=7),
)
def test_a_flipped_bit_in_a_consistency_proof_or_either_root_fails(
    size: int, data: st.DataObject, position: int, bit: int
) -> None:
    _, log = build(size)
    old = data.draw(st.integers(min_value=1, max_value=size - 1))
    proof = log.consistency_proof(old)
    old_root, new_root = log.root(old), log.root()
    which = data.draw(st.integers(min_value=0, max_value=len(proof) + 1))
    if which == len(proof):
        old_root = flip(old_root, position, bit)
    elif which == len(proof) + 1:
        new_root = flip(new_root, position, bit)
    else:
        proof[which] = flip(proof[which], position, bit)
    with pytest.raises(ProofError):
        verify_consistency(old, size, old_root, new_root, proof)


@PROPERTY
@given(st.integers(min_value=1, max_value=60), st.data())
def test_a_proof_for_another_size_or_index_fails(size: int, data: st.DataObject) -> None:
    leaves, log = build(size + 1)
    index = data.draw(st.integers(min_value=0, max_value=size - 1))
    proof = log.inclusion_proof(index, size)
    with pytest.raises(ProofError):
        verify_inclusion(leaves[index], index, size + 1, proof, log.root(size + 1))
    if size > 1:
        other = (index + 1) % size
        with pytest.raises(ProofError):
            verify_inclusion(leaves[index], other, size, proof, log.root(size))
